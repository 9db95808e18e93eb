import ArgumentParser

extension StoreGateCommand {
    struct Content: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Work with content kept in object storage (content.s3 or content.cloudfront).",
            subcommands: [Measure.self])

        func run() throws { throw ValidationError("Name a content command: measure.") }

        struct Measure: StoreGateSubcommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Read each catalog object once from the storage and write its size and SHA-256 into the catalog.",
                discussion: """
                    Every product with an object: key is read whole (a streamed GET through a signed URL) and \
                    hashed; the catalog is then written with size: and sha256: set, whole or not at all. Nothing \
                    is written when an object cannot be read. YAML comments in the catalog are not kept.
                    """)

            @OptionGroup var options: ConfigOption
            @Option(
                help: ArgumentHelp(
                    "Write the catalog here instead of over catalog.file.", valueName: "file"))
            var output: String?

            func run(in cli: StoreGateCLI) -> Int32 { cli.measureContent(configFile: options.config, output: output) }
        }
    }
}
