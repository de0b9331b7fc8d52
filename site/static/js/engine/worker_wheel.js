// The engine worker's wheel path (see worker.js), the fallback: Pyodide's stock files from
// pyodide/ (the WebAssembly compiled as it arrives, the standard library, the lock file),
// micropip from its wheel, then the engine wheel installed with micropip. A failure here is
// the worker's `failed` event. `shared` is what worker.js hands its start-up modules.

/** Python without the snapshot: load micropip, install the engine wheel, import it. */
export async function startFromWheel(shared, BUILD) {
  const { ROOT, indexURL, WASM_URL, STDLIB_URL, LOCK_URL, earlyStockWasm, stockLoaders, pyodideModule, handOver, log } = shared;
  const { progress, expectBytes, watchedFetch, fetchOk, fetchBytes, useWasm, compileResponse, stageError } = shared;
  const micropipURL = new URL(BUILD.micropipWheel, ROOT).href;
  const engineURL = new URL(BUILD.engineWheel, ROOT).href;
  const engineName = BUILD.engineWheel.split("/").pop();
  expectBytes(new Map([
    [WASM_URL, BUILD.wasmSize],
    [STDLIB_URL, BUILD.stdlibSize],
  ]), 0.7);

  // Everything starts now: the WebAssembly (compiled as it arrives), the standard library,
  // the lock file, our wheel (micropip installs it from the in-memory file system).
  const wasmResponse = earlyStockWasm || watchedFetch(WASM_URL);
  const wasmModule = wasmResponse.then(async (response) => {
    if (!response.ok) throw new Error(`pyodide.asm.wasm answered HTTP ${response.status}`);
    const copy = response.clone();
    return compileResponse(response, "pyodide.asm.wasm", () => copy.arrayBuffer());
  });
  const wasmFailed = useWasm(wasmModule);
  const stdlib = fetchBytes(STDLIB_URL);
  const lock = fetchOk(LOCK_URL).then((r) => r.json());
  const engineBytes = fetchBytes(engineURL);
  for (const p of [stdlib, lock, engineBytes]) p.catch(() => {});
  Promise.all([wasmModule, stdlib]).then(() => progress("python", 0.7), () => {});

  let pyodide;
  try {
    await stockLoaders();
    const { loadPyodide } = await pyodideModule;
    const stdlibBytes = await stdlib;
    handOver.set(STDLIB_URL, () => new Response(stdlibBytes));
    pyodide = await Promise.race([
      loadPyodide({
        indexURL,
        packageBaseUrl: indexURL,
        lockFileContents: await lock,
        stdout: (text) => log("info", text),
        stderr: (text) => log("warn", text),
      }),
      wasmFailed,
    ]);
  } catch (err) {
    throw stageError("pyodide", err);
  }

  progress("micropip", 0.75);
  try {
    await pyodide.loadPackage(micropipURL, {
      messageCallback: (text) => log("info", text),
      errorCallback: (text) => log("warn", text),
      checkIntegrity: false,
    });
    if (!pyodide.loadedPackages.micropip) throw new Error("micropip did not load");
  } catch (err) {
    throw stageError("micropip", err);
  }

  progress("engine", 0.85);
  try {
    const wheelPath = `/tmp/${engineName}`;
    pyodide.FS.writeFile(wheelPath, await engineBytes);
    const micropip = pyodide.pyimport("micropip");
    try {
      await micropip.install(`emfs:${wheelPath}`);
    } finally {
      micropip.destroy();
    }
  } catch (err) {
    throw stageError("engine", err);
  }
  progress("import", 0.95);
  return pyodide;
}
