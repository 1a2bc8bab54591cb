import FetchPredictor
import Foundation
import Hummingbird
import NIOCore

/// An answer of the service that is not a success: its status, a sentence, and the field at
/// fault when one is. Sent as JSON, `{"error": "...", "field": "..."}`; it never holds a stack or
/// a path of the server.
///
/// The library's errors become statuses here and only here, with sentences in the service's own
/// terms (fields, routes), as the command line's become messages with its flags in `ErrorText`.
struct APIError: HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String
    var field: String?
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    /// The body of every error.
    struct Body: Encodable {
        var error: String
        var field: String?
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: Self.body(message, field: field)))
    }

    /// The JSON body of an error: also written by the handlers that answer before any route.
    static func body(_ message: String, field: String? = nil) -> ByteBuffer {
        do {
            return ByteBuffer(bytes: try WireJSON.encoder(pretty: false).encode(Body(error: message, field: field)))
        } catch {
            // Two strings always encode.
            preconditionFailure("an error's body did not encode: \(error)")
        }
    }

    static func notFound(device: String) -> APIError {
        APIError(.notFound, "there is no device named '\(device)'", field: "device")
    }

    /// The status and sentence of any error a handler throws.
    static func from(_ error: any Error) -> APIError? {
        switch error {
        case let error as APIError:
            return error
        case let error as EventBatchReader.Problem:
            return APIError(error.isTooLarge ? .contentTooLarge : .badRequest, error.reason, field: error.field)
        case let error as InvalidFieldError:
            switch error {
            case .invalid(let field, let reason): return APIError(.badRequest, reason, field: field)
            case .invalidInBatch(let index, let field, let reason):
                return APIError(.badRequest, reason, field: "events[\(index)].\(field)")
            }
        case let error as StoreError:
            switch error {
            case .noTimeZone:
                return APIError(
                    .conflict,
                    "the device has no time zone, and daily habits are local times: give it one with PUT /v1/devices/{device}",
                    field: "timeZone")
            case .localTimesReadInZone(_, let stored, let given, _):
                return APIError(
                    .conflict,
                    "the device stays in \(stored): local times of its imports were read in it, and in \(given) each would mean another instant",
                    field: "timeZone")
            case .unavailable:
                // The database is down or restarting: the client tries again, and the pool
                // connects anew once it is back.
                var answer = APIError(.serviceUnavailable, "the database does not answer: try again shortly")
                answer.headers[.retryAfter] = "1"
                return answer
            case .busy:
                var answer = APIError(.serviceUnavailable, "the store is busy with another writer: try again shortly")
                answer.headers[.retryAfter] = "1"
                return answer
            case .unknownDevice(let stored):
                // The tenant knows its device by its own name, not the store's.
                return notFound(device: DeviceIdentity(stored: stored).name)
            case .unknownTimeZone(let name):
                return APIError(
                    .badRequest, "'\(name)' is not a known time zone: use an IANA name such as Europe/Warsaw",
                    field: "timeZone")
            case .unknownForecaster(let name):
                return APIError(
                    .badRequest,
                    "'forecaster' must be one of \(Forecasters.names.joined(separator: ", ")), or null for the service's; not '\(name)'",
                    field: "forecaster")
            default:
                // The store's own sentences name files of the server: they stay in its log.
                return nil
            }
        case let error as SchedulerBusy:
            // A query that waited for learning as long as the scheduler lets it (learnWait).
            return busy(error)
        case is NIOTooManyBytesError:
            return APIError(.contentTooLarge, "the body is larger than the service accepts")
        case let error as HTTPError where error.status == .notFound && error.body == nil:
            // The router's answer for a path no route has: said as a sentence, as every other is.
            return APIError(.notFound, "there is no such route: the service's routes are in /openapi.yaml")
        case let error as HTTPError:
            return APIError(error.status, error.body ?? error.status.reasonPhrase)
        default:
            return nil
        }
    }
}
