import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// dialog-renderer: answers `dialog.render` from locale templates checked at start-up.
public final class DialogRendererService {
    public let server: ReplyServer
    public let handler: RenderHandler

    /// Serves `handler` on `endpoint`.
    public init(context: Context, bind endpoint: String, handler: RenderHandler, logger: Logger) throws {
        self.handler = handler
        server = try ReplyServer(name: "dialog-renderer", context: context, bind: endpoint, logger: logger,
                                 maxRequestBytes: ReplyServer.smallRequestBytes)
        server.on(MessageType.dialogRender.rawValue) { [handler] request in handler.reply(to: request) }
        server.statsDetails = { [catalog = handler.catalog] in
            ["locales": .array(catalog.locales.map { .string($0) }),
             // What users are told to say: `fuelboard health` checks intent-router hears the same.
             "appName": .string(catalog.appName)]
        }
    }

    /// Loads and checks the templates (from `directory`, else the bundled ones) and the
    /// Europe/London calendar; the error says which file and key is wrong.
    public static func makeHandler(templates directory: URL?,
                                   appName: String = AppNameSetting.defaultName) throws -> RenderHandler {
        let catalog = try directory.map { url throws(TemplateError) in try TemplateCatalog(directory: url, appName: appName) }
            ?? TemplateCatalog.bundled(appName: appName)
        guard let calendar = FeedAge.londonCalendar() else {
            throw SetupError("the Europe/London time zone is not available on this system")
        }
        return RenderHandler(catalog: catalog, calendar: calendar)
    }
}

/// A start-up problem other than a template (the service exits 1 with it as one line).
public struct SetupError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
