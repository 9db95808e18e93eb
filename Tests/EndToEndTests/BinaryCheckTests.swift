import Foundation
import Testing

extension EndToEnd {
    /// `storegate-build --check-binary`: a built storegate may define no symbol of a shared library it loads (the
    /// binary's copy would take the library's place, for its own calls and the gateway's). storegate-build runs it
    /// on every gateway it builds; here on this repository's own, and on small programs that do what a handler
    /// module's C once did.
    @Suite struct BinaryCheck {
        static func check(_ binary: URL) throws -> CommandLine.Outcome {
            try CommandLine.run(
                ["--check-binary", binary.path], binary: Binaries.buildFolder.appendingPathComponent("storegate-build"))
        }

        /// A program built from `source` with the toolchain's clang, linked with `libraries`.
        static func program(_ source: String, libraries: [String] = []) throws -> URL {
            let folder = try SampleContent.makeFolder()
            let file = folder.appendingPathComponent("main.c")
            try source.write(to: file, atomically: true, encoding: .utf8)
            let binary = folder.appendingPathComponent("program")
            let built = try CommandLine.run(
                [file.path, "-o", binary.path] + libraries.map { "-l\($0)" },
                binary: URL(fileURLWithPath: "/opt/swift/usr/bin/clang").resolvingSymlinksInPath())
            #expect(built.status == 0, "\(built.errors)")
            return binary
        }

        @Test func thisRepositorysGatewayDefinesNoSymbolOfALibraryItLoads() throws {
            let checked = try Self.check(Binaries.storegate)
            #expect(checked.status == 0, "\(checked.errors)")
            #expect(checked.errors.contains("defines no symbol of a library it loads"))
        }

        @Test(arguments: [
            // libfcgi's writer, as a thirty-fourth reviewer's C target and a thirty-fifth's header defined it.
            ("int FCGX_PutStr(const char *s, int n, void *stream) { return n; }", ["fcgi"], "FCGX_PutStr"),
            // Weak, it wins all the same.
            (
                "__attribute__((weak)) int FCGX_GetStr(char *s, int n, void *stream) { return 0; }", ["fcgi"],
                "FCGX_GetStr"
            ),
            // libpq's connect, which is handed the ledger's URL and password.
            (
                "void *PQconnectdbParams(const char *const *k, const char *const *v, int e) { return 0; }", ["pq"],
                "PQconnectdbParams"
            ),
            // The loader's own (ldd prints its line as a bare path).
            ("int _dl_mcount(void) { return 0; }", [], "_dl_mcount"),
            // libc's, which every library calls.
            ("long write(int fd, const void *b, unsigned long n) { return (long)n; }", [], "write"),
        ])
        func aProgramThatDefinesALibrarysFunctionIsRefused(source: String, libraries: [String], symbol: String) throws {
            let binary = try Self.program(source + "\nint main(void) { return 0; }\n", libraries: libraries)
            let checked = try Self.check(binary)
            #expect(checked.status != 0)
            #expect(
                checked.errors.contains("symbol(s) of libraries it loads: \(symbol) (also in /"), "\(checked.errors)")
            #expect(checked.errors.contains("Do not run it"))
        }

        @Test func aProgramOfItsOwnNamesPasses() throws {
            let binary = try Self.program(
                "int FCGX_Tap(void) { return 0; }\nint main(void) { return FCGX_Tap(); }\n", libraries: ["fcgi"])
            let checked = try Self.check(binary)
            #expect(checked.status == 0, "\(checked.errors)")
        }
    }
}
