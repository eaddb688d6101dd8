/* How each page of the static site starts Python (the kernel's pyodideUrl names this file,
   which app/site/build.py puts beside Pyodide's own pyodide.js; the kernel's worker loads it
   and calls the loadPyodide it defines).

   The kernel calls loadPyodide with the packages that the page's settings name: the kernel's
   own and pangaea_lab (the kernel then installs none of them itself).  Instead of Pyodide
   fetching and unpacking them wheel by wheel from its lock, which costs seconds on every page,
   they come already unpacked in one file, site-packages.bin (made by the build, kept by the
   browser's cache after the first page), written into Python's site-packages before Python
   starts.  Its Python files come with their bytecode, compiled for this Pyodide by the build.

   site-packages.bin is gzipped: 4 bytes (little-endian) giving the length of a JSON list of
   [path under site-packages, size in bytes], that list, then the files' bytes in its order.
   A path that begins with "/" is written where it names (a folder's ends in "/").

   And Python does not start from nothing: it starts from snapshot.bin (gzipped), its memory
   as the build left it after importing what the kernel and the pages import (piplite, the
   kernel with IPython, pangaea_lab's games, widgets and exercises; app/site/snapshot.mjs), so
   that a page imports none of it again.  The few functions of Pyodide's own that Python held
   then are named in the snapshot by where they are: each is found again here, on this page's
   Pyodide, when Python uses it.  Python's random numbers are seeded afresh, and Pyodide's
   list of the installed packages filled, as a start from nothing would. */
(function () {
  async function download(address) {
    var response = await fetch(address);
    if (!response.ok) {
      throw new Error("The site's file " + address + " answered " + response.status);
    }
    var stream = response.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  function unpack(FS, folder, bytes) {
    var length = new DataView(bytes.buffer).getUint32(0, true);
    var files = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
    var offset = 4 + length;
    files.forEach(function (file) {
      // a path under site-packages, or an absolute one (what the snapshot's imports wrote)
      var path = file[0].charAt(0) === "/" ? file[0] : folder + "/" + file[0];
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      if (path.charAt(path.length - 1) !== "/") {
        FS.writeFile(path, bytes.subarray(offset, offset + file[1]));
      }
      offset += file[1];
    });
  }

  // what a name in the snapshot ([where, key or null, type]: app/site/snapshot.mjs) stands
  // for, on the page's Pyodide (loaded.pyodide once loadPyodide is done): every use of it asks
  // that Pyodide, so that it may be named before that Pyodide is there
  function finder(loaded) {
    function place(where) {
      return where === "api" ? loaded.pyodide._api : loaded.pyodide;
    }
    return function (name) {
      var where = name[0], key = name[1];
      if (name[2] === "function") {
        return function () {
          var holder = place(where);
          return holder[key].apply(holder, arguments);
        };
      }
      function object() {
        return key === null ? place(where) : place(where)[key];
      }
      return new Proxy({}, {
        get: function (_, property) { return object()[property]; },
        has: function (_, property) { return property in object(); },
        ownKeys: function () { return Reflect.ownKeys(object()); },
        getOwnPropertyDescriptor: function (_, property) {
          var found = Reflect.getOwnPropertyDescriptor(object(), property);
          if (found) { found.configurable = true; }
          return found;
        }
      });
    };
  }

  self.loadPyodide = function (options) {
    // indexURL: the folder of Pyodide (and of this file), as the kernel gives it
    var folder = options.indexURL;
    var packages = download(folder + "site-packages.bin");  // while Pyodide loads
    var snapshot = download(folder + "snapshot.bin");
    importScripts(folder + "pyodide.js");  // Pyodide's own loadPyodide, in place of this one
    var settings = Object.assign({}, options);
    delete settings.packages;
    var before = settings.fsInit;
    settings.fsInit = async function (FS, info) {
      unpack(FS, info.sitePackages, await packages);
      if (before) { await before(FS, info); }
    };
    var loaded = {};
    settings._loadSnapshot = snapshot;
    settings._snapshotDeserializer = finder(loaded);
    return self.loadPyodide(settings).then(function (pyodide) {
      loaded.pyodide = pyodide;
      // Pyodide's list of the packages in site-packages: Python's loader, restored from the
      // snapshot, fills an object of its own, not the one that loadPackage reads (which would
      // then install the kernel's packages again from their wheels, as the page's cells import
      // them); it fills the page's own here
      var loader = pyodide.pyimport("pyodide._package_loader");
      loader.loadedPackages = pyodide.loadedPackages;
      loader.init_loaded_packages();
      loader.destroy();
      pyodide.runPython("import random; random.seed()");
      return pyodide;
    });
  };
})();
