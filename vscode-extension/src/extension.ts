// The omp-lsp extension: starts the language server for C, C++ and Fortran and gives its commands
// a place in the editor (an output channel for build-and-run reports and maps, a progress
// notification, a status bar item). The analysis itself is the server's.
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  DocumentSelector,
  ExecuteCommandSignature,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from "vscode-languageclient/node";

// The server's commands (workspace/executeCommand) and the editor's commands that front them.
const SERVER = {
  buildAndRun: "omp-lsp.buildAndRun",
  showDeviceMap: "omp-lsp.showDeviceMap",
  showOffloadEntries: "omp-lsp.showOffloadEntries",
  configuration: "omp-lsp.showConfiguration",
};
const INSTALL = "python3 -m pip install omp-lsp";
const FORTRAN_FILES = "**/*.{f,for,ftn,f77,F,FOR,FTN,F77,f90,f95,f03,f08,f18,F90,F95,F03,F08,F18}";

// C and C++ by language id; Fortran by the ids of the Modern Fortran extension (and VS Code's
// own `fortran`) and, for users without a Fortran extension, by file name.
export const DOCUMENT_SELECTOR: DocumentSelector = [
  ...["c", "cpp", "fortran", "FortranFreeForm", "FortranFixedForm"].map((language) => ({ scheme: "file", language })),
  { scheme: "file", pattern: FORTRAN_FILES },
];

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let reports: vscode.OutputChannel;
let status: vscode.StatusBarItem;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("omp-lsp", { log: true });
  reports = vscode.window.createOutputChannel("omp-lsp: Build and Run");
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  status.command = "omp-lsp.showOutput";
  context.subscriptions.push(output, reports, status);
  context.subscriptions.push(
    vscode.commands.registerCommand("omp-lsp.restartServer", () => restart(context)),
    vscode.commands.registerCommand("omp-lsp.buildAndRunFile", (uri?: vscode.Uri) => buildAndRun(activeUri(uri))),
    vscode.commands.registerCommand("omp-lsp.showDeviceMapView", () => showDeviceMap()),
    vscode.commands.registerCommand("omp-lsp.showOffloadEntriesView", (uri?: vscode.Uri) =>
      showOffloadEntries(activeUri(uri))),
    vscode.commands.registerCommand("omp-lsp.showOutput", () => output.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("omp-lsp.server.command")) {
        void restart(context);
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart(context)),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const command = serverCommand();
  const serverOptions: ServerOptions = { command: command[0], args: command.slice(1), options: { env: process.env } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    synchronize: { configurationSection: "omp-lsp" },
    // (with `initialize` too, so that the first analysis already uses them)
    initializationOptions: { "omp-lsp": withTrust(vscode.workspace.getConfiguration("omp-lsp")) },
    middleware: {
      executeCommand,
      workspace: {
        // the server pulls the section (workspace/configuration): it gets the workspace's trust too
        configuration: async (params, token, next) => {
          const found = await next(params, token);
          return Array.isArray(found)
            ? found.map((value: unknown, i) => (params.items[i]?.section === "omp-lsp" ? withTrust(value) : value))
            : found;   // (an error answer)
        },
        // (the status bar asks the server for the version in force once it has the new settings)
        didChangeConfiguration: async (sections, next) => {
          await next(sections);
          await updateStatus();
        },
      },
    },
  };
  client = new LanguageClient("omp-lsp", "omp-lsp", serverOptions, clientOptions);
  context.subscriptions.push(client.onDidChangeState(() => void updateStatus()));
  setStatus("$(sync~spin) omp-lsp", "omp-lsp is starting");
  try {
    await client.start();
  } catch (err) {
    setStatus("$(error) omp-lsp", "omp-lsp could not start");
    const choice = await vscode.window.showErrorMessage(
      `omp-lsp: the language server could not start (${command.join(" ")}: ${String(err)}). ` +
        `Install it with \`${INSTALL}\`, or set "omp-lsp.server.command".`,
      "Copy install command",
      "Open settings",
    );
    if (choice === "Copy install command") {
      await vscode.env.clipboard.writeText(INSTALL);
    } else if (choice === "Open settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "omp-lsp.server.command");
    }
    return;
  }
  await updateStatus();
}

// The `omp-lsp` settings as the server gets them: in an untrusted workspace `buildAndRun` is false,
// whatever the settings say, so that the server itself refuses to build and run (and offers no code
// action for it) to any request. Granting trust restarts the server, which then gets the settings.
export function withTrust(settings: unknown): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(settings ?? {})) as Record<string, unknown>;
  return vscode.workspace.isTrusted ? plain : { ...plain, buildAndRun: false };
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  if (client !== undefined) {
    const old = client;
    client = undefined;
    try {
      await old.stop();
    } catch {
      // (a server that died already: nothing to stop)
    }
  }
  await start(context);
}

// The setting's command; with the default and no `omp-lsp` on the PATH, `python3 -m omp_lsp`.
export function serverCommand(): string[] {
  const configured = vscode.workspace.getConfiguration("omp-lsp").get<string[]>("server.command") ?? ["omp-lsp"];
  const command = configured.length > 0 ? configured : ["omp-lsp"];
  if (command.length === 1 && command[0] === "omp-lsp" && !onPath("omp-lsp")) {
    return ["python3", "-m", "omp_lsp"];
  }
  return command;
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((folder) => {
    try {
      fs.accessSync(path.join(folder, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

// -- the status bar: the server's state and the OpenMP version it checks against ----------------
function setStatus(text: string, tooltip: string): void {
  status.text = text;
  status.tooltip = tooltip;
  status.show();
}

async function updateStatus(): Promise<void> {
  if (client === undefined || client.state !== State.Running) {
    const stopped = client === undefined || client.state === State.Stopped;
    setStatus(stopped ? "$(circle-slash) omp-lsp" : "$(sync~spin) omp-lsp", stopped ? "omp-lsp is stopped" : "omp-lsp is starting");
    return;
  }
  try {
    const config = await client.sendRequest<{ openmpVersion: string; propagation: string }>("workspace/executeCommand", {
      command: SERVER.configuration,
      arguments: [],
    });
    setStatus(`$(check) OpenMP ${config.openmpVersion}`,
      `omp-lsp is running: OpenMP ${config.openmpVersion}, propagation ${config.propagation}`);
  } catch {
    setStatus("$(check) omp-lsp", "omp-lsp is running");
  }
}

// -- commands ---------------------------------------------------------------------------------------
function activeUri(uri?: vscode.Uri): vscode.Uri | undefined {
  return uri ?? vscode.window.activeTextEditor?.document.uri;
}

// The server's build-and-run command, from the code action too, goes through the editor's
// progress notification and output channel; in an untrusted workspace it does not run.
async function executeCommand(command: string, args: unknown[], next: ExecuteCommandSignature): Promise<unknown> {
  if (command === SERVER.buildAndRun) {
    const uri = typeof args[0] === "string" ? vscode.Uri.parse(args[0]) : undefined;
    return runBuild(uri, async () => next(command, args));
  }
  return next(command, args);
}

async function buildAndRun(uri: vscode.Uri | undefined): Promise<unknown> {
  if (client === undefined || uri === undefined) {
    void vscode.window.showWarningMessage("omp-lsp: open a C, C++ or Fortran file with a main program first.");
    return undefined;
  }
  const running = client;
  return runBuild(uri, () => running.sendRequest("workspace/executeCommand", {
    command: SERVER.buildAndRun,
    arguments: [uri.toString()],
  }));
}

interface Report {
  file: string;
  toolchain: string | null;
  builds: { kind: string; command: string[]; command_line?: string; ok: boolean; seconds: number;
    diagnostics: Finding[] }[];
  runs: { kind: string; exit_code: number | null; stdout: string; stderr: string; seconds: number;
    offloaded: boolean | null; timed_out: boolean; truncated: boolean }[];
  same_output: boolean | null;
  diagnostics: Finding[];
  notes: string[];
}

interface Finding { file: string; line: number; column: number; severity: string; code: string; message: string }

async function runBuild(uri: vscode.Uri | undefined, send: () => Promise<unknown>): Promise<unknown> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage("omp-lsp: building and running needs a trusted workspace.");
    return undefined;
  }
  const name = uri ? path.basename(uri.fsPath) : "the file";
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `omp-lsp: building and running ${name}` },
    async () => {
      const report = (await send()) as Report | null;
      if (report) {
        reports.clear();
        reports.append(formatReport(report));
        reports.show(true);
      }
      return report;
    },
  );
}

export function formatReport(report: Report): string {
  const lines = [`${report.file}: toolchain ${report.toolchain ?? "none"}`];
  for (const b of report.builds) {
    // (command_line: quoted to paste into a shell)
    const command = b.command_line ?? b.command.join(" ");
    lines.push(`${b.kind} build: ${b.ok ? "ok" : "failed"} in ${b.seconds.toFixed(2)} s: ${command}`);
    lines.push(...b.diagnostics.map((d) => `  ${finding(d)}`));
  }
  for (const r of report.runs) {
    const state = r.timed_out ? "timed out" : `exit ${r.exit_code}`;
    const where = r.offloaded === true ? ", offloaded" : r.offloaded === false ? ", not offloaded (ran on the host)" : "";
    lines.push(`${r.kind} run: ${state} in ${r.seconds.toFixed(2)} s${where}${r.truncated ? ", output truncated" : ""}`);
    lines.push(...r.stdout.split("\n").filter((l) => l !== "").map((l) => `  | ${l}`));
    lines.push(...r.stderr.split("\n").filter((l) => l !== "").map((l) => `  ! ${l}`));
  }
  lines.push(...report.notes.map((n) => `note: ${n}`));
  lines.push(...report.diagnostics.map(finding));
  if (report.same_output !== null) {
    lines.push(report.same_output ? "same output on host and device" : "the runs differ in output or exit status");
  }
  return lines.join("\n") + "\n";
}

function finding(d: Finding): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message} [${d.code}]`;
}

async function showDeviceMap(): Promise<void> {
  if (client === undefined) {
    return;
  }
  const map = await client.sendRequest<{ propagation: string; entities: DeviceRow[] }>("workspace/executeCommand", {
    command: SERVER.showDeviceMap,
    arguments: [],
  });
  reports.clear();
  reports.appendLine(`Device map (propagation: ${map.propagation})`);
  for (const e of map.entities) {
    const how = e.explicit ? "explicit" : e.device_type === "none" ? "-" : "implicit";
    const chain = e.chain.map((s) => s.label).join(" → ");
    reports.appendLine(`${e.file}:${e.line}  ${e.kind}  ${e.name}  ${e.device_type}  ${how}${chain ? `  ${chain}` : ""}`);
  }
  reports.show(true);
}

interface DeviceRow {
  name: string; kind: string; device_type: string; explicit: boolean; file: string; line: number;
  chain: { label: string }[];
}

async function showOffloadEntries(uri: vscode.Uri | undefined): Promise<void> {
  if (client === undefined || uri === undefined) {
    return;
  }
  const entries = await client.sendRequest<{ kind: string; name: string; function?: string; line?: number }[] | null>(
    "workspace/executeCommand", { command: SERVER.showOffloadEntries, arguments: [uri.toString()] });
  if (!entries) {
    return;   // (the server said why: build and run first)
  }
  reports.clear();
  reports.appendLine(`Offload entries of ${uri.fsPath}'s last device build`);
  for (const e of entries) {
    reports.appendLine(`${e.kind}: ${e.function ?? e.name}${e.line ? ` (line ${e.line})` : ""}`);
  }
  reports.show(true);
}
