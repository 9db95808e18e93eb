import GatewayServer

/// The entry of a `storegate` that storegate-build builds with handler modules from outside this repository:
/// the compiled-in modules and the added ones, each listed by `storegate version` with where it came from.
///
/// The one public API of this module, for the package storegate-build writes. A handler module that depends on
/// this module or imports it is refused at build time, as for any module of this package but the handler API.
public enum StoreGateEntry {
    /// Runs the command line `arguments` (without the program name) with the compiled-in handler modules and
    /// the modules whose main types are `modules`, each from the place `origins` names for its Swift module;
    /// returns the exit status.
    public static func main(_ arguments: [String], adding modules: [Any.Type], origins: [String: String]) -> Int32 {
        StoreGateCLI.main(arguments, registry: { .compiledIn.adding(types: modules, origins: origins) })
    }
}
