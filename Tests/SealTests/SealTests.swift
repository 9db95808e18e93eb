import Testing

/// DESIGN's promise, checked by the compiler: a plugin cannot serve content without the verification
/// service. Each bypass below is a small handler plugin compiled against the built modules exactly as a
/// real one is; the test passes only when the compiler refuses it (and accepts the honest plugin, so a
/// broken harness cannot pass for a refusal).
@Suite struct SealTests {
    static let compiler = Result { try PluginCompiler(like: "DownloadHandler") }

    @Test func anHonestContentPluginCompiles() throws {
        let result = try Self.compiler.get().typecheck(Plugins.honest)
        #expect(result.succeeded, "\(result.output)")
    }

    @Test(arguments: Plugins.bypasses)
    func aBypassDoesNotCompile(_ bypass: Plugins.Bypass) throws {
        let result = try Self.compiler.get().typecheck(Plugins.header + bypass.source)
        #expect(!result.succeeded, "the compiler accepted: \(bypass.name)")
        #expect(result.output.contains(bypass.refusal), "\(bypass.name): \(result.output)")
    }
}
