// The extension in a real VS Code: code-server on 127.0.0.1 with the built .vsix installed, an
// example workspace opened in headless Chromium (playwright-core), and what a person sees asserted:
// the squiggle and the Problems entry of a declare target mistake, the inlay hint after an implied
// procedure, the quick fix applied from the light-bulb menu and its diagnostic gone, a branch the build
// does not compile greyed out as a comment, a header read in the function that includes it, the build
// and run report in its output channel, the offload entries and device map, the status bar, a
// restart, and the notification when the server cannot start. A screenshot of each state goes to
// e2e/artifacts/.
//
// Environment: CODE_SERVER (its executable), OMP_LSP (the server command), VSIX (the package),
// EXAMPLES (the folder to copy as the workspace), CHROMIUM (default /usr/bin/chromium); E2E_KEEP=1
// keeps the temporary folder (user data, logs).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { chromium } from "playwright-core";

const here = path.dirname(new URL(import.meta.url).pathname);
const artifacts = path.join(here, "artifacts");
const need = (name) => {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set (make e2e sets it)`);
  }
  return value;
};
const CODE_SERVER = need("CODE_SERVER");
const OMP_LSP = need("OMP_LSP");
const VSIX = need("VSIX");
const EXAMPLES = need("EXAMPLES");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const TIMEOUT = 60_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")}: exit ${code}\n${output}`))));
  });
}

async function waitForServer(port, child) {
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with ${child.exitCode}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("code-server did not start");
}

const steps = [];
function step(name) {
  steps.push(name);
  console.log(`e2e: ${name}`);
}

// The ids of the processes whose argument list `match` accepts.
function processes(match) {
  return fs.readdirSync("/proc").filter((pid) => /^\d+$/.test(pid)).filter((pid) => {
    try {
      return match(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a !== ""));
    } catch {
      return false;
    }
  });
}

// The language servers this test started with OMP_LSP.
function serverProcesses() {
  return processes((argv) => argv.includes(OMP_LSP.split(" ")[0]));
}

async function waitFor(condition, what) {
  const deadline = Date.now() + TIMEOUT;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Edits the user settings as a person would: settings.json opened in the editor, changed, saved.
async function editUserSettings(page, userData, changes) {
  const file = path.join(userData, "User", "settings.json");
  const settings = { ...JSON.parse(fs.readFileSync(file, "utf8")), ...changes };
  const editor = page.locator(".monaco-editor .view-lines", { hasText: "omp-lsp.server.command" }).first();
  if (!(await editor.isVisible())) {   // (it stays open, over the workbench, once opened)
    await palette(page, "Preferences: Open User Settings (JSON)");
    await editor.waitFor({ timeout: TIMEOUT });
  }
  await editor.click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Control+Shift+End");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(JSON.stringify(settings, null, 2));
  await page.keyboard.press("Control+S");
  await waitFor(() => {
    try {
      return JSON.stringify(JSON.parse(fs.readFileSync(file, "utf8"))) === JSON.stringify(settings);
    } catch {
      return false;   // (being written)
    }
  }, "settings.json saved");
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}

// Runs a command from the palette by its title.
async function palette(page, title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ timeout: TIMEOUT });
  await input.fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor({ timeout: TIMEOUT });
  await page.keyboard.press("Enter");
}

async function openFile(page, name) {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ timeout: TIMEOUT });
  await input.fill(name);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor({ timeout: TIMEOUT });
  await page.keyboard.press("Enter");
  await page.locator(`.tab.active[aria-label*="${name}"]`).waitFor({ timeout: TIMEOUT });
  await page.locator(".monaco-editor .view-lines").first().click();
}

// Quick Open's `:line:column` (the browser keeps Ctrl+G for itself).
async function goToLine(page, line, column) {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ timeout: TIMEOUT });
  await input.fill(column ? `:${line}:${column}` : `:${line}`);
  await page.waitForTimeout(200);   // (the list follows the typed text)
  await page.keyboard.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: TIMEOUT });
}

// A code-server with its own user data (settings) and the installed extension, serving `workspace`.
async function codeServer(root, name, workspace, { trusted, serverCommand = true }) {
  const userData = path.join(root, `${name}-user-data`);
  const extensions = path.join(root, `${name}-extensions`);
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({
    ...(serverCommand ? { "omp-lsp.server.command": OMP_LSP.split(" ") } : {}),
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "workbench.enableExperiments": false,
    "editor.inlayHints.enabled": "on",
    "editor.lightbulb.enabled": "on",
    "editor.semanticHighlighting.enabled": true,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": false,
    "extensions.ignoreRecommendations": true,
    "chat.disableAIFeatures": true,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    // (untrusted: open in Restricted Mode without asking)
    "security.workspace.trust.startupPrompt": "never",
    "security.workspace.trust.emptyWindow": false,
    // (settings.json is edited by inserting its whole text: nothing may be added as it goes in)
    "editor.autoClosingBrackets": "never",
    "editor.autoClosingQuotes": "never",
    "editor.autoIndent": "none",
    "editor.formatOnType": false,
  }, null, 2));
  const config = path.join(root, `${name}-config.yaml`);
  fs.writeFileSync(config, "auth: none\n");
  const env = { ...process.env, HOME: root, XDG_DATA_HOME: path.join(root, "data"), XDG_CONFIG_HOME: path.join(root, "config") };
  await run(CODE_SERVER, ["--install-extension", VSIX, "--user-data-dir", userData, "--extensions-dir", extensions], env);
  const port = await freePort();
  const child = spawn(CODE_SERVER, ["--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry",
    "--disable-update-check", ...(trusted ? ["--disable-workspace-trust"] : []), "--user-data-dir", userData,
    "--extensions-dir", extensions, "--config", config, workspace], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const served = { child, userData, log: "", url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}` };
  child.stdout.on("data", (d) => (served.log += d));
  child.stderr.on("data", (d) => (served.log += d));
  await waitForServer(port, child);
  return served;
}

async function openWorkbench(browser, served) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(TIMEOUT);
  await page.goto(served.url);
  await page.locator(".monaco-workbench").waitFor({ timeout: TIMEOUT });
  await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: TIMEOUT });
  return page;
}

function stop(served) {
  try {
    process.kill(-served.child.pid, "SIGKILL");   // (the whole group: code-server and its extension host)
  } catch {
    // gone already
  }
}

async function main() {
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "omp-lsp-e2e-"));
  const workspace = path.join(root, "project");
  fs.cpSync(EXAMPLES, workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, ".omp-lsp.toml"), 'toolchain = "clang-22"\n');
  // the build's configuration: a branch it does not compile, and a header included in a function
  fs.writeFileSync(path.join(workspace, "configured.c"), [
    "void scale(int n, double *a) {", "#ifdef GPU",
    "#pragma omp target teams distribute parallel for map(tofrom: a[0:n])", "  for (long i = 0; i < n; i++) {",
    "#else", "  // the plain loop", "  for (int i = 0; i < n; i++) {", "#endif", "    a[i] *= 2.0;", "  }", "}", ""].join("\n"));
  fs.writeFileSync(path.join(workspace, "driver.c"), [
    "#define USE_TEAMS 1", "void run(int n, double *a) {", "#pragma omp target data map(tofrom: a[0:n])", "  {",
    "#include \"kernel.h\"", "  }", "}", ""].join("\n"));
  fs.writeFileSync(path.join(workspace, "kernel.h"), [
    "#if USE_TEAMS", "#pragma omp target teams distribute parallel for", "#else",
    "#pragma omp target parallel for thread_limit(64) thread_limit(32)", "#endif", "for (int i = 0; i < n; i++)",
    "  a[i] += 1.0;", ""].join("\n"));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"] });
  const servers = [];
  try {
    step("install the .vsix into code-server");
    const served = await codeServer(root, "trusted", workspace, { trusted: true });
    servers.push(served);
    const userData = served.userData;
    const page = await openWorkbench(browser, served);
    step("a declare target mistake: the squiggle and the Problems entry");
    await openFile(page, "mistakes.c");
    await goToLine(page, 12, 37);
    await page.locator(".monaco-editor .squiggly-error").first().waitFor({ timeout: TIMEOUT });
    await page.keyboard.press("Control+Shift+M");
    const problem = page.locator(".markers-panel .monaco-list-row", { hasText: "device_tpye" }).first();
    await problem.waitFor({ timeout: TIMEOUT });
    const problemText = await problem.innerText();
    if (!problemText.includes("OMP002")) {
      throw new Error(`the Problems entry does not name OMP002: ${problemText}`);
    }
    await shot(page, "1-squiggle-and-problems");

    step("the inlay hint after the procedure the target region makes device code");
    await page.locator(".monaco-editor .view-lines").first().click();
    await goToLine(page, 104);
    const hint = page.locator(".monaco-editor .view-lines", { hasText: "declare target · any (implicit)" }).first();
    await hint.waitFor({ timeout: TIMEOUT });
    await shot(page, "2-inlay-hint");

    step("the quick fix from the light-bulb menu");
    await goToLine(page, 12, 40);
    const bulb = page.locator(".lightBulbWidget, .codicon-lightbulb, .codicon-light-bulb").first();
    await bulb.waitFor({ timeout: TIMEOUT });
    await bulb.click();
    const fix = page.locator(".action-widget .monaco-list-row, .context-view .action-item", { hasText: "Change to 'device_type'" }).first();
    await fix.waitFor({ timeout: TIMEOUT });
    await shot(page, "3-light-bulb-menu");
    await fix.click();
    await page.locator(".monaco-editor .view-lines", { hasText: "to(gain) device_type(any)" }).first().waitFor({ timeout: TIMEOUT });
    await page.locator(".markers-panel .monaco-list-row", { hasText: "device_tpye" }).first()
      .waitFor({ state: "detached", timeout: TIMEOUT });
    await shot(page, "4-quick-fix-applied");

    step("branches the build does not compile: greyed out as comments, with the information");
    await openFile(page, "configured.c");
    await page.locator(".monaco-editor .squiggly-info").first().waitFor({ timeout: TIMEOUT });
    // the colour class of the token that holds `text` (the innermost span: a line is spans of spans)
    const tokenClass = async (text) => {
      const token = page.locator(".monaco-editor .view-line span > span", { hasText: text }).first();
      return await token.count() > 0 ? await token.getAttribute("class") : "";   // (one token only once coloured)
    };
    let inactive = "", comment = "";
    let loop = "";
    for (let tries = 0; tries < 300 && (inactive === "" || inactive !== comment || loop !== comment); tries++) {
      inactive = await tokenClass("teams");        // the directive of the branch GPU would compile
      loop = await tokenClass("long");             // the loop of that branch
      comment = await tokenClass("// the plain loop");
      await page.waitForTimeout(200);
    }
    if (inactive !== comment || loop !== comment) {
      throw new Error(`the inactive branch is not shown as a comment: ${inactive}, ${loop} vs ${comment}`);
    }
    if (await tokenClass("2.0") === comment) {
      throw new Error("the active code is shown as a comment");
    }
    await page.waitForTimeout(1000);   // (every line of the branch repainted)
    await shot(page, "5-inactive-branch");

    step("a header opened alone: read inside the function that includes it, with its includer's macros");
    await openFile(page, "kernel.h");
    await page.locator(".monaco-editor .squiggly-info").first().waitFor({ timeout: TIMEOUT });
    await page.keyboard.press("Control+Shift+M");
    const filter = page.locator(".viewpane-filter input, .markers-panel-action-filter input").first();
    await filter.fill("kernel.h");   // (the Problems list shows the rows in view only)
    const kernelRows = page.locator(".markers-panel .monaco-list-row", { hasText: "omp-lsp" });
    await page.locator(".markers-panel .monaco-list-row", { hasText: "undefine USE_TEAMS" }).first()
      .waitFor({ timeout: TIMEOUT });
    await shot(page, "6-header-in-its-includer");
    if (await kernelRows.count() !== 1) {   // the information only: no directive "at file scope" (OMP008)
      throw new Error(`the header is analysed outside its includer: ${await kernelRows.allInnerTexts()}`);
    }
    await filter.fill("");

    step("build and run on host and device: the report in the output channel");
    await openFile(page, "saxpy.c");
    await palette(page, "omp-lsp: Build and Run on Host and Device");
    const report = page.locator(".output-view, .panel .monaco-editor", { hasText: "device run: exit 0" }).first();
    await report.waitFor({ timeout: 180_000 });
    const reportText = await report.innerText();
    if (!reportText.includes("offloaded")) {
      throw new Error(`the report does not say the device run was offloaded:\n${reportText}`);
    }
    await shot(page, "7-build-and-run-output");

    step("the offload entries and the device map in the same output channel; the status bar");
    await palette(page, "omp-lsp: Show Offload Entries");
    await page.locator(".output-view, .panel .monaco-editor", { hasText: "kernel: saxpy" }).first()
      .waitFor({ timeout: TIMEOUT });
    await palette(page, "omp-lsp: Show Device Map");
    // (the channel shows its last lines: the map ends with saxpy.c's procedure)
    await page.locator(".output-view, .panel .monaco-editor", { hasText: "saxpy.c:11" }).first()
      .waitFor({ timeout: TIMEOUT });
    const statusItem = page.locator(".statusbar-item", { hasText: "OpenMP 5.1" }).first();
    await statusItem.waitFor({ timeout: TIMEOUT });
    await shot(page, "8-device-map");

    step("restart the server: a new server process, and the status bar comes back");
    const before = serverProcesses();
    if (before.length !== 1) {
      throw new Error(`expected one server process, found ${before.length}`);
    }
    await palette(page, "omp-lsp: Restart Server");
    await waitFor(() => {
      const now = serverProcesses();
      return now.length === 1 && now[0] !== before[0];
    }, "a new server process");
    await page.locator(".statusbar-item", { hasText: "OpenMP 5.1" }).first().waitFor({ timeout: TIMEOUT });

    step("a setting changed in settings.json: the status bar and the diagnostics follow");
    await editUserSettings(page, userData, { "omp-lsp.openmpVersion": "5.2" });
    await page.locator(".statusbar-item", { hasText: "OpenMP 5.2" }).first().waitFor({ timeout: TIMEOUT });
    await page.keyboard.press("Control+Shift+M");
    await page.locator(".markers-panel .monaco-list-row", { hasText: "needs OpenMP 5.2" }).first()
      .waitFor({ state: "detached", timeout: TIMEOUT });   // (mistakes.c's `enter` is 5.2 spelling)

    step("a server that cannot start: a notification with the install command");
    await editUserSettings(page, userData, { "omp-lsp.server.command": ["/nonexistent/omp-lsp"] });
    const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "could not start" }).first();
    await toast.waitFor({ timeout: TIMEOUT });
    const toastText = await toast.innerText();
    if (!toastText.includes("python3 -m pip install omp-lsp")) {
      throw new Error(`the notification does not give the install command: ${toastText}`);
    }
    await shot(page, "9-server-cannot-start");

    step("an untrusted workspace, no omp-lsp on the PATH: python3 -m omp_lsp analyses, build and run is off");
    // (the default server command, and a login shell whose python3 is the one omp-lsp is installed
    // for: the editor takes its PATH from the user's login shell)
    const fallback = path.join(root, "fallback-bin");
    fs.mkdirSync(fallback);
    fs.writeFileSync(path.join(fallback, "python3"),
      `#!/bin/sh\nexec ${path.join(path.dirname(OMP_LSP.split(" ")[0]), "python")} "$@"\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(root, ".profile"), `PATH="${fallback}:$PATH"\nexport PATH\n`);
    const untrusted = await codeServer(root, "untrusted", workspace, { trusted: false, serverCommand: false });
    servers.push(untrusted);
    const restricted = await openWorkbench(browser, untrusted);
    await restricted.locator(".statusbar-item", { hasText: "Restricted Mode" }).first().waitFor({ timeout: TIMEOUT });
    await openFile(restricted, "mistakes.f90");
    await restricted.locator(".monaco-editor .squiggly-error").first().waitFor({ timeout: TIMEOUT });
    await restricted.keyboard.press("F1");
    await restricted.locator(".quick-input-widget input").fill(">omp-lsp: Build and Run");
    await restricted.locator(".quick-input-list .monaco-list-row", { hasText: "omp-lsp: Show Device Map" }).first()
      .waitFor({ timeout: TIMEOUT });
    if (await restricted.locator(".quick-input-list .monaco-list-row", { hasText: "Build and Run on Host" }).count() > 0) {
      throw new Error("Build and Run is offered in an untrusted workspace");
    }
    if (processes((argv) => argv.slice(-2).join(" ") === "-m omp_lsp").length !== 1) {
      throw new Error("the server did not start as python3 -m omp_lsp");
    }
    await shot(restricted, "10-untrusted-workspace");
    await restricted.keyboard.press("Escape");
    console.log(`e2e: passed (${steps.length} steps; screenshots in ${artifacts})`);
  } catch (err) {
    for (const p of browser.contexts().flatMap((c) => c.pages())) {
      await p.screenshot({ path: path.join(artifacts, `failure-${browser.contexts().indexOf(p.context())}.png`) }).catch(() => {});
    }
    fs.writeFileSync(path.join(artifacts, "code-server.log"), servers.map((s) => s.log).join("\n----\n"));
    throw err;
  } finally {
    await browser.close();
    servers.forEach(stop);
    if (process.env.E2E_KEEP) {
      console.log(`e2e: kept ${root}`);   // (to read the editors' logs)
    } else {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
}

main().catch((err) => {
  console.error(`e2e: failed at "${steps.at(-1)}": ${err.stack || err}`);
  process.exit(1);
});
