// Browser scripts served by the apps (the MCP Apps views): one entry bundled with its dependencies into
// a single minified script, so the page needs nothing from the network. Used by the build (which writes
// `<name>.bundle.js` beside the compiled code) and, when an app runs from its TypeScript sources, at start-up.
const { execFileSync } = require('node:child_process');
const esbuild = require('esbuild');

/** Entry points of browser bundles: `<name>.bundle.ts` in a `browser/` folder of an app. */
const BUNDLE_ENTRY = /[\\/]browser[\\/][^\\/]+\.bundle\.ts$/;
/** Everything in a `browser/` folder is browser code: bundled, never compiled as a server module. */
const BROWSER_DIR = /[\\/]browser[\\/]/;

/**
 * zod (through the MCP SDK's message schemas) re-exports every one of its ~50 message locales; the views
 * only ever use English (which zod loads directly), so the locale index resolves to English alone.
 */
const englishZodLocalesOnly = {
  name: 'english-zod-locales-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(require.resolve('zod/v4/locales/en.js'))};`,
      loader: 'js',
      resolveDir: __dirname,
    }));
  },
};

/**
 * The MCP SDK's client and core packages (which the ext-apps `App` is built on) do not declare their
 * modules free of side effects, so a bundle would keep every module they import whether used or not
 * (transports, OAuth, validators): a third of the client. Their modules only define things, so they are
 * bundled as side-effect free and what the views never use is left out.
 */
const SDK_PACKAGE = /^@modelcontextprotocol\/(?:client|core)(?:\/|$)/;
const SDK_FILE = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](?:client|core)[\\/]/;
const sdkWithoutSideEffects = {
  name: 'sdk-without-side-effects',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'sdk-without-side-effects') return undefined;
      if (!SDK_PACKAGE.test(args.path) && !SDK_FILE.test(args.importer)) return undefined;
      const resolved = await build.resolve(args.path, {
        importer: args.importer,
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: 'sdk-without-side-effects',
      });
      return resolved.errors.length > 0 ? undefined : { ...resolved, sideEffects: false };
    });
  },
};

/** Bundles one entry (esbuild plugins need its asynchronous API). */
async function bundle(entry) {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins: [englishZodLocalesOnly, sdkWithoutSideEffects],
  });
  return result.outputFiles[0].text;
}

/** The bundled script of an entry, synchronously (the build and the apps' start-up are synchronous). */
function bundleBrowserScript(entry) {
  return execFileSync(process.execPath, [__filename, entry], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

module.exports = { bundleBrowserScript, BUNDLE_ENTRY, BROWSER_DIR };

if (require.main === module) {
  bundle(process.argv[2]).then(
    (text) => process.stdout.write(text),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
