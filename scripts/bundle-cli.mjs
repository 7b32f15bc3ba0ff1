// Bundles the `binring` command (packages/cli/dist/binring.js, as tsc built it,
// and every module it imports) into packages/cli/dist/bundle/, one file per
// subcommand plus shared chunks, and writes packages/cli/dist/main.js, the
// entry everything runs. Every local cluster starts a Node process per backend
// and keeper: from hundreds of small files, resolving and compiling took two
// thirds of each start; from the bundle a start costs about half the CPU. The
// subcommands stay lazy: `binring backend` reads the backend's chunks only.
// Run by `npm run build` after tsc.
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const cliDist = fileURLToPath(new URL("../packages/cli/dist/", import.meta.url));
const outdir = join(cliDist, "bundle");

/** A path from the bundle's directory to FILE, for code that runs in the bundle. */
const fromBundle = (file) => JSON.stringify(relative(outdir, file).split("\\").join("/"));

/**
 * Modules find files beside themselves (the .proto and .lua files, a package's
 * own package.json, the CLI's own entry) through import.meta.url, __dirname and
 * __filename. In the bundle these would name the chunk, so each module gets
 * them as they were where it was installed, relative to the bundle: the same
 * after the tree is copied elsewhere whole, as the container image does.
 */
const keepModuleLocations = {
  name: "keep-module-locations",
  setup(context) {
    context.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const usesUrl = source.includes("import.meta.url");
      // An ES module that declares its own (from import.meta.url) keeps it.
      const usesDirname =
        /\b__(dirname|filename)\b/.test(source) && !/\b(var|let|const)\s+__(dirname|filename)\b/.test(source);
      if (!usesUrl && !usesDirname) return undefined;
      const url = `new URL(${fromBundle(args.path)}, __binringBundle).href`;
      const locals = usesDirname
        ? `var __filename = __binringPath(${url}); var __dirname = __binringDirname(__filename);\n`
        : "";
      return { contents: locals + source.replaceAll("import.meta.url", url), loader: "js" };
    });
  },
};

// Each output file's own scope: a `require` for the CommonJS packages bundled
// into ES modules, and what keepModuleLocations' replacements call.
const banner = [
  'import { createRequire as __binringCreateRequire } from "node:module";',
  'import { dirname as __binringDirname } from "node:path";',
  'import { fileURLToPath as __binringPath } from "node:url";',
  "const __binringBundle = import.meta.url;",
  "const require = __binringCreateRequire(import.meta.url);",
].join(" ");

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { binring: join(cliDist, "binring.js") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  banner: { js: banner },
  plugins: [keepModuleLocations],
  logLevel: "warning",
});

const main = join(cliDist, "main.js");
writeFileSync(
  main,
  '#!/usr/bin/env node\n// The `binring` command, bundled by scripts/bundle-cli.mjs from src/binring.ts.\nimport "./bundle/binring.js";\n',
);
chmodSync(main, 0o755);
const bytes = readFileSync(join(outdir, "binring.js")).length;
process.stdout.write(`bundled binring into ${relative(process.cwd(), outdir)} (entry ${bytes} bytes)\n`);
