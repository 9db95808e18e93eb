/// An access key for S3: its id, its secret and, for temporary credentials, the session token. Never printed:
/// its description and reflection show the id alone.
package struct S3Credentials: Sendable, CustomStringConvertible, CustomReflectable {
    package let accessKeyId: String
    package let secretAccessKey: String
    package let sessionToken: String?

    package init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    package var description: String { "S3 access key \(accessKeyId)" }
    package var customMirror: Mirror { Mirror(self, children: ["accessKeyId": accessKeyId]) }
}
