import Foundation
import GatewayCore
import PurchaseLedger
import PurchaseVerification

typealias FreeGrantRecipient = FreeGrants.Recipient

extension StoreGateCLI {
    /// `storegate grant give`: records the grant and prints it.
    func give(
        _ product: String, to recipient: FreeGrantRecipient, environment: String?, reason: String, grantedBy: String,
        expires: Date?, configFile: String, json: Bool
    ) -> Int32 {
        guard let (services, context) = verificationService(configFile, command: "grant") else { return 1 }
        do {
            let grant = try services.grants.grant(
                product, to: recipient, environment: environment, reason: reason, grantedBy: grantedBy,
                expires: expires, requestId: context.requestId)
            print(json ? GrantReport.json([grant]) : "granted: " + GrantReport.line(grant))
            return 0
        } catch {
            return failed("grant", "\(error)")
        }
    }

    /// `storegate grant revoke`: revokes the grant and prints it.
    func revoke(_ id: String, reason: String, revokedBy: String, configFile: String, json: Bool) -> Int32 {
        guard let (services, _) = verificationService(configFile, command: "grant revoke") else { return 1 }
        do {
            let (grant, revokedNow) = try services.grants.revoke(id, revokedBy: revokedBy, reason: reason)
            print(
                json
                    ? GrantReport.json([grant])
                    : (revokedNow ? "revoked: " : "already revoked: ") + GrantReport.line(grant))
            return 0
        } catch {
            return failed("grant revoke", "\(error)")
        }
    }

    /// `storegate grant list`: the grants in force (or all), newest first.
    func listGrants(all: Bool, configFile: String, json: Bool) -> Int32 {
        guard let (services, _) = verificationService(configFile, command: "grant list") else { return 1 }
        do {
            let grants = try services.grants.list(all: all)
            if json {
                print(GrantReport.json(grants))
            } else if grants.isEmpty {
                print(all ? "No free grant was ever made." : "No free grant is in force.")
            } else {
                for grant in grants { print(GrantReport.line(grant)) }
            }
            return 0
        } catch {
            return failed("grant list", "\(error)")
        }
    }
}
