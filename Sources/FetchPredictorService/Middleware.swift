import FetchPredictor
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOPosix

/// Checks `Authorization: Bearer KEY` and puts the key's tenant into the context: a missing,
/// unknown or revoked key is 401. A key's tenant comes from ``KeyCache``, which a check of the
/// store's revocations vouches for, so that a revoked key is refused within the check's
/// interval; a client that sent too many wrong keys is answered 429 before a key it has not used
/// rightly is looked up, while one it has is served (``KeyGuessLimit``).
struct BearerKeyMiddleware: RouterMiddleware {
    typealias Context = APIContext
    let keys: KeyCache
    let guesses: KeyGuessLimit
    /// The proxies whose forwarded address names the client the guesses are counted for.
    var proxies = TrustedProxies.none

    func handle(
        _ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response
    ) async throws -> Response {
        // The scheme's name is case-insensitive (RFC 9110, 11.1): 'bearer KEY' is a key too.
        guard let header = request.headers[.authorization], header.count > 7,
            header.prefix(7).lowercased() == "bearer "
        else {
            throw Self.refusal("no API key: send 'Authorization: Bearer KEY'")
        }
        let key = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        let tenant = try await tenant(
            of: key, from: proxies.client(peer: context.peer, headers: request.headers))
        var context = context
        context.tenant = tenant
        return try await next(request, context)
    }

    /// The tenant of a request's key, sent from `client`: a key the client proved is looked up at
    /// once; another takes one of its guesses first (given back when it was right), and past them
    /// is answered 429 without a lookup.
    private func tenant(of key: String, from client: String) async throws -> String {
        let digest = APIKeyText.digest(key)
        var admission = guesses.admit(client, key: digest)
        if admission == .proven {
            if let tenant = try await keys.tenant(forKey: key, digest: digest) { return tenant }
            // Revoked since the client proved it: a guess from now on.
            guesses.disproved(client, key: digest)
            admission = guesses.admit(client, key: digest)
        }
        if case .wait(let wait) = admission {
            var error = APIError(
                .tooManyRequests, "too many wrong API keys from this address; wait and send the right one")
            error.headers[.retryAfter] = String(max(1, Int(wait.components.seconds) + 1))
            throw error
        }
        guard let tenant = try await keys.tenant(forKey: key, digest: digest) else {
            guesses.failed()
            throw Self.refusal("the API key is not valid, or was revoked")
        }
        guesses.proved(client, key: digest)
        return tenant
    }

    static func refusal(_ message: String) -> APIError {
        var error = APIError(.unauthorized, message)
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }
}

/// Turns every error into a JSON answer, and counts and times every request by route and
/// status. An error the service does not expect is logged with the request's id and answered
/// with a 500 that says no more.
struct ErrorsAndMetricsMiddleware: RouterMiddleware {
    typealias Context = APIContext
    /// Where an outage of the store is noticed, and its end.
    let health: StoreHealth

    func handle(
        _ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            // The router reads '/v1/devices//events' as '/v1/devices/events': a path with an
            // empty segment is no route, rather than another route than the one meant.
            if request.uri.path.contains("//") {
                throw APIError(.notFound, "there is no such route: the path has an empty segment")
            }
            response = try await next(request, context)
            // A 2xx of the store's routes: the store answered.
            if response.status.code < 300, request.uri.path.hasPrefix("/v1/") || request.uri.path == "/readyz" {
                health.answered()
            }
        } catch {
            if StoreHealth.isOutage(error) { health.failed() }
            var answer: APIError
            if let error = error as? HTTPError, error.status == .notFound,
                let allowed = Routes.methods(allowedOn: request.uri.path), !allowed.contains(request.method.rawValue)
            {
                // The path is a route, the method is not one of it.
                answer = APIError(.methodNotAllowed, "\(request.method.rawValue) is not a method of this route")
                answer.headers[.allow] = allowed.joined(separator: ", ")
            } else if let known = APIError.from(error) {
                answer = known
            } else {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
                answer = APIError(
                    .internalServerError, "the service failed to answer; its log says why (request \(context.id))")
            }
            response = try answer.response(from: request, context: context)
        }
        let elapsed = ContinuousClock.now - start
        let route = context.endpointPath ?? "unmatched"
        context.logger.debug(
            "answered",
            metadata: [
                "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(response.status.code)",
                // Milliseconds to a hundredth.
                "ms": "\(Double(elapsed.nanoseconds / 10_000) / 100)",
            ])
        let dimensions = [
            ("route", route), ("method", request.method.rawValue), ("status", String(response.status.code)),
        ]
        Counter(label: "fetchpredict_http_requests_total", dimensions: dimensions).increment()
        Metrics.Timer(label: "fetchpredict_http_request_duration_seconds", dimensions: dimensions)
            .recordNanoseconds(elapsed.nanoseconds)
        return response
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Answers HEAD as GET, without the body (RFC 9110, 9.3.2): before the router, which knows only
/// the GET routes.
struct HeadAsGet<Base: HTTPResponder>: HTTPResponder where Base.Context == APIContext {
    let base: Base

    func respond(to request: Request, context: APIContext) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await base.respond(to: Request(head: head, body: request.body), context: context)
        response.body = .init()
        return response
    }
}
