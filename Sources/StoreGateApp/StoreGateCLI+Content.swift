import ConfigYAML
import ContentStorage
import Foundation
import GatewayCore
import GatewayHandlerAPI
import ProductCatalog

extension StoreGateCLI {
    /// `storegate content measure`: each catalog object read once from the storage, its size and SHA-256 written
    /// into the catalog (all of them, or nothing when one cannot be read).
    func measureContent(configFile: String, output: String?) -> Int32 {
        let command = "content measure"
        guard let (objects, catalogFile) = remoteObjects(configFile, command: command) else { return 1 }
        defer { objects.shutdown() }
        var catalog: CatalogObjects
        do {
            catalog = try CatalogObjects(file: catalogFile)
        } catch {
            return failed(command, error.message)
        }
        let entries = catalog.entries
        guard !entries.isEmpty else {
            return failed(command, "\(catalogFile) names no object (no product has object:)")
        }
        var failures = 0
        for entry in entries {
            switch objects.measure(entry.key) {
            case .success(let measured):
                catalog.set(entry.productId, size: measured.size, sha256: measured.sha256)
                print("\(entry.productId): \(entry.key), \(measured.size) bytes, sha256 \(measured.sha256)")
            case .failure(let problem):
                failures += 1
                print("\(entry.productId): \(entry.key) could not be read: \(problem.message)")
            }
        }
        guard failures == 0 else {
            return failed(
                command, "\(failures) of \(entries.count) objects could not be read; the catalog is unchanged")
        }
        do {
            try catalog.write(to: output)
        } catch {
            return failed(command, error.message)
        }
        print("\(output ?? catalogFile): \(entries.count) objects measured")
        return 0
    }

    /// `check-config --remote`: every object of the loaded catalog looked at in the storage. The problems, one line
    /// each, as check-config prints them.
    func remoteProblems(_ configFile: String, catalog: Catalog) -> [ConfigProblem] {
        let objects = catalog.products.compactMap { product -> (String, String, Int)? in
            guard let content = product.content, case .object(let key) = content.source else { return nil }
            return (product.id, key, content.size)
        }
        guard !objects.isEmpty else { return [] }
        guard let (reader, _) = remoteObjects(configFile, command: "check-config --remote") else {
            return [ConfigProblem(keyPath: "content", message: "the storage's settings could not be read")]
        }
        defer { reader.shutdown() }
        return objects.compactMap { id, key, size in
            let at = "catalog: product \(id)"
            switch reader.look(at: key) {
            case .found(let found) where found == size: return nil
            case .found(let found):
                return ConfigProblem(
                    keyPath: at,
                    message:
                        "object \(key) is \(found) bytes in the storage, the catalog says \(size) (run storegate content measure)"
                )
            case .missing(let status):
                return ConfigProblem(
                    keyPath: at,
                    message: status == 404
                        ? "object \(key) is not in the storage"
                        : "the storage refused to show object \(key): check the access key's permissions (s3:GetObject)"
                )
            case .failed(let why):
                return ConfigProblem(keyPath: at, message: "object \(key) could not be checked: \(why)")
            }
        }
    }

    /// The storage's objects as `configFile`'s content section reaches them (`content.s3`, else
    /// `content.cloudfront`), and the catalog file; nil after saying why not.
    private func remoteObjects(_ configFile: String, command: String) -> (RemoteObjects, String)? {
        let document: ConfigValue
        do {
            document = try ConfigValue.read(file: configFile, describedAs: "the config file")
        } catch {
            for problem in error.problems { print(problem.line) }
            return nil
        }
        let folder = URL(fileURLWithPath: configFile).deletingLastPathComponent().path
        let config = ConfigReader(document: document, yamlBaseDirectory: folder, environment: environment)
        let content = config.scoped("content")
        guard let catalogFile = config.scoped("catalog").path("file") else {
            _ = failed(command, "the config names no catalog (catalog.file)")
            return nil
        }
        let link: (@Sendable (String, String) throws -> String)?
        if content.hasSection("s3") {
            link = StorageSettings.presigner(content.scoped("s3")).map { presigner in
                { @Sendable method, key in presigner.url(method, key: key, at: Date(), expires: 900) }
            }
        } else if content.hasSection("cloudfront") {
            link = StorageSettings.cloudFront(content.scoped("cloudfront")).map { signer in
                { @Sendable _, key in try signer.url(key: key, expiresAt: Date().addingTimeInterval(900)) }
            }
        } else {
            _ = failed(command, "the config gives no storage to read objects from (content.s3 or content.cloudfront)")
            return nil
        }
        let problems = config.problems.filter { !$0.isWarning }
        guard let link, problems.isEmpty else {
            for problem in problems { print(problem.line) }
            return nil
        }
        return (RemoteObjects(link: link), catalogFile)
    }
}
