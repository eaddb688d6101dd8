// Compile Python files to bytecode with the site's own Pyodide, run by Node.js at build time
// (app/site/build.py calls it).  A .pyc file holds the magic number of the Python that wrote
// it, so only Pyodide's Python (3.13 for Pyodide 0.29) can write the files that Pyodide's
// Python in the browser will use; the build machine's Python may be another version.
//
//   node precompile.mjs <pyodide folder> <folder>=<its path in Pyodide>=<layout> ...
//
// <folder> is a folder on this machine, compiled in place; <its path in Pyodide> is where its
// files will be when the site runs (what tracebacks name); <layout> is "beside" (name.pyc next
// to name.py: what zipimport reads, for the standard library's zip) or "cache"
// (__pycache__/name.cpython-313.pyc: what a site-packages folder reads).  The files are
// "unchecked-hash" .pyc files: Python uses them without comparing them with the source's date,
// which the files written in the browser do not keep.  Folders named tests are
// left as source: no page imports them.
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const [pyodideDir, ...folders] = process.argv.slice(2);
if (!pyodideDir || folders.length === 0) {
  console.error("usage: node precompile.mjs <pyodide folder> <folder>=<path in Pyodide>=<beside|cache> ...");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });

let failed = 0;
folders.forEach((spec, index) => {
  const [host, target, layout] = spec.split("=");
  if (!host || !target || !["beside", "cache"].includes(layout)) {
    throw new Error(`not <folder>=<path in Pyodide>=<beside|cache>: ${spec}`);
  }
  const mount = `/precompile/${index}`;
  pyodide.FS.mkdirTree(mount);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(host) }, mount);
  const compiled = pyodide.runPython(`
import compileall, py_compile, re
compileall.compile_dir(${JSON.stringify(mount)}, quiet=1, legacy=${layout === "beside" ? "True" : "False"},
                       stripdir=${JSON.stringify(mount)}, prependdir=${JSON.stringify(target)},
                       rx=re.compile(r"/tests/"), workers=1,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`);
  if (!compiled) {
    console.error(`some files in ${host} did not compile`);
    failed += 1;
  }
  pyodide.FS.unmount(mount);
});
process.exit(failed ? 1 : 0);
