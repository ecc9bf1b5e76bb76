import DialogRenderer
import Foundation
import ServiceKit

// dialog-renderer: check the templates, start, serve until SIGTERM/SIGINT, exit 0.
let main = ServiceMain(
    name: "dialog-renderer",
    summary: """
        Answers dialog.render: turns an assistant outcome into the spoken dialog, a short value, a
        snippet card and, for directions, a maps URL. Texts come from one JSON file per locale
        (en-GB is the base every other locale falls back to); all of them are checked at start-up.
        """,
    options: [
        OptionSpec("--templates", value: "DIR", help: "load the locale files from DIR instead of the bundled ones"),
        OptionSpec("--check-templates", help: "check the templates, print the locales found and exit"),
        AppNameSetting.option("the app name the texts' {app} says (give intent-router the same)"),
    ],
    uses: ["--dialog"])

let handler: RenderHandler
do {
    handler = try DialogRendererService.makeHandler(
        templates: main.arguments.value("--templates").map { URL(fileURLWithPath: $0, isDirectory: true) },
        appName: main.appName(isUsable: AppNameSetting.isWritable))
} catch {
    // A setting to fix (the directory, or the files in it), said in one line with exit 64, as
    // the other settings are: exit 1 restarted a systemd unit in a loop (QA).
    let given = main.arguments.value("--templates")
    // The bundle missing says so itself ("the bundled templates ... are not next to the binary").
    let missingBundle = given == nil ? (error as? TemplateError).flatMap { $0.file == nil && $0.key == nil ? $0.problem : nil } : nil
    let text = missingBundle ?? "\(given.map { "--templates \($0)" } ?? "the bundled templates"): \(error)"
    ServiceMain.usageFailure(name: main.name, ConfigurationError("\(text) (see --templates in --help)"))
}
main.finishConfigurationCheck([
    "bind": main.bindEndpoint(default: main.topology.dialog),
    "locales": handler.catalog.locales.joined(separator: ","),
    "app-name": main.appName(isUsable: AppNameSetting.isWritable),
])
if main.arguments.has("--check-templates") {
    print("templates ok: \(handler.catalog.locales.joined(separator: ", "))")
    exit(ServiceMain.ExitCode.success)
}

do {
    let service = try DialogRendererService(
        context: main.context, bind: main.bindEndpoint(default: main.topology.dialog), handler: handler,
        logger: main.logger)
    main.run(service.server)
} catch {
    main.logger.cannotStart(error)
    exit(ServiceMain.ExitCode.failure)
}
