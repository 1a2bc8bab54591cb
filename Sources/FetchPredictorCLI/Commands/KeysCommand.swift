import ArgumentParser
import FetchPredictor
import Foundation

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make, list and revoke the API keys of the HTTP service.",
        discussion: """
            The store keeps only a SHA-256 of each key: a key is shown once, when it is made, as \
            the last word of the output, so that a script can take it with awk '{print $NF}'.

            Example:
              fetchpredict keys create --tenant acme
              fetchpredict keys list
              fetchpredict keys revoke 1
            """,
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Make a key for a tenant and print it, as the last word of the output.",
            discussion: """
                A tenant's devices are its own: no other tenant's key reaches them. In the store \
                they are named TENANT/DEVICE, so that the other commands reach them with \
                --device TENANT/DEVICE.

                Example:
                  fetchpredict keys create --tenant acme
                """)

        @OptionGroup var store: DatabaseOptions
        @Option(help: ArgumentHelp("The tenant: letters, digits, '.', '_' and '-'.", valueName: "name"))
        var tenant: String
        @OptionGroup var clock: ClockOptions

        func validate() throws {
            if let problem = StoreRules.problem(withTenantName: tenant) {
                throw ValidationError("--tenant was refused: \(problem).")
            }
        }

        func run() async throws {
            let eventStore = try store.openStore()
            let (key, info) = try await eventStore.createKey(tenant: tenant, now: try clock.currentDate())
            print("Key \(info.id) of tenant \(tenant), shown only now: \(key)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the keys: number, tenant, when made and revoked; never the keys.",
            discussion: """
                Example:
                  fetchpredict keys list --json
                """)

        @OptionGroup var store: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let keys = try await store.openStore(creating: false).keys()
            try output.print(keys) { keys in
                if keys.isEmpty { return "No API keys yet: make one with fetchpredict keys create --tenant NAME." }
                return Output.table(
                    ["ID", "TENANT", "CREATED", "REVOKED"],
                    keys.map {
                        [
                            String($0.id), $0.tenant, Output.local($0.createdAt, nil),
                            $0.revokedAt.map { Output.local($0, nil) } ?? "-",
                        ]
                    }, rightAligned: [0])
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a key: a service refuses it within its --key-check-interval (1 s), at most twice it.",
            discussion: """
                Example:
                  fetchpredict keys revoke 1
                """)

        @OptionGroup var store: DatabaseOptions
        @Argument(help: ArgumentHelp("The key's number, as keys list shows it.", valueName: "id"))
        var id: Int64
        @OptionGroup var clock: ClockOptions

        func run() async throws {
            let revoked = try await store.openStore(creating: false).revokeKey(id: id, now: try clock.currentDate())
            print(revoked ? "Key \(id) revoked." : "Key \(id) was revoked already.")
        }
    }
}
