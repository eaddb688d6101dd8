// Make the site's memory snapshot: Python's memory after the kernel's and the pages' imports,
// which each page then starts from instead of importing them again (app/site/build.py calls
// this with Node.js at build time; app/site/start.js loads the snapshot in the browser).
//
//   node snapshot.mjs <pyodide folder> <site-packages.bin> <snapshot file> <python code> <list>
//
// Pyodide starts as a page's does (site-packages.bin written into site-packages before Python
// starts), runs <python code> (imports only), and writes its memory, gzipped, to <snapshot file>,
// and to <list> (JSON): "held", the bytecode files in site-packages of the modules it then holds
// (paths under site-packages), which a page that starts from the snapshot never reads; and
// "written", what the imports wrote outside site-packages (the kernel's IPython profile folder
// in the home folder): [absolute path, base64 of its bytes], a folder's path ending in "/".
// The snapshot keeps Python's memory, not its files: a page writes those from
// site-packages.bin, where the build adds them.
// A snapshot keeps Python's memory, not JavaScript's: what Python holds of JavaScript must be
// named so that the page can find it again.  Pyodide names what Python reached through the
// global scope itself (the `js` module); the imports here also keep functions of Pyodide's own
// API (micropip's loadPackage, the kernel's loadPackagesFromImports) and that API itself, which
// this file names by where they are (Pyodide's object or its internal API) and start.js finds
// again there.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

const [pyodideDir, bundlePath, target, code, listing] = process.argv.slice(2);
if (!pyodideDir || !bundlePath || !target || !code || !listing) {
  console.error("usage: node snapshot.mjs <pyodide folder> <site-packages.bin> <snapshot file> <python code> <list>");
  process.exit(2);
}

// the layout of site-packages.bin: see start.js
const bundle = new Uint8Array(gunzipSync(readFileSync(bundlePath)));
function unpack(FS, info) {
  const length = new DataView(bundle.buffer, bundle.byteOffset).getUint32(0, true);
  const files = JSON.parse(new TextDecoder().decode(bundle.subarray(4, 4 + length)));
  let offset = 4 + length;
  for (const [name, size] of files) {
    const path = info.sitePackages + "/" + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, bundle.subarray(offset, offset + size));
    offset += size;
  }
}

const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/", fsInit: unpack,
                                    _makeSnapshot: true });
// the folders outside site-packages where the imports might write (the home folder, /tmp)
const FS = pyodide.FS;
function walk(folder, out) {
  for (const name of FS.readdir(folder)) {
    if (name === "." || name === "..") { continue; }
    const path = folder + "/" + name;
    out.push(path);
    if (FS.isDir(FS.stat(path).mode)) { walk(path, out); }
  }
  return out;
}
const outside = () => walk(FS.cwd(), []).concat(walk("/tmp", []));
const before = new Set(outside());

// in a namespace of their own: the page's (__main__, the learner's) gets none of their names
const namespace = pyodide.runPython("{}");
pyodide.runPython(code, { globals: namespace });
const written = outside().filter((path) => !before.has(path)).map((path) =>
  FS.isDir(FS.stat(path).mode) ? [path + "/", ""]
    : [path, Buffer.from(FS.readFile(path)).toString("base64")]);
const held = pyodide.runPython(`
import site, sys
folder = site.getsitepackages()[0] + "/"
sorted({m.__cached__[len(folder):] for m in list(sys.modules.values())
        if (getattr(m, "__cached__", None) or "").startswith(folder)})
`, { globals: namespace });
writeFileSync(listing, JSON.stringify({ held: held.toJs(), written }));
held.destroy();
namespace.destroy();

// The packages that Pyodide found installed (site-packages.bin's, as a page has them): Pyodide
// takes a snapshot only with this list empty, and a page finds the packages again itself.
const found = pyodide.loadedPackages;
for (const name of Object.keys(found)) {
  delete found[name];
}

// each as [where, key or null for the object itself, its type]: what start.js finds it by
const places = [["api", pyodide._api], ["public", pyodide]];
function name(value) {
  for (const [where, object] of places) {
    if (value === object) {
      return [where, null, typeof value];
    }
  }
  for (const [where, object] of places) {
    for (const key of Object.getOwnPropertyNames(object)) {
      let held;
      try { held = object[key]; } catch (error) { continue; }
      if (held === value) {
        return [where, key, typeof value];
      }
    }
  }
  throw new Error("Python holds a JavaScript object that a page could not find again: " +
                  (value && value.constructor ? value.constructor.name : typeof value));
}

const snapshot = pyodide.makeMemorySnapshot({ serializer: name });
writeFileSync(target, gzipSync(snapshot, { level: 9 }));
console.log(`${target}: ${(snapshot.length / 1e6).toFixed(1)} MB of memory`);
