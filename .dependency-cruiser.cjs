/**
 * Which file may import which (issue 22), checked by `npm run lint` after biome, on
 * apps/server/src, packages/contracts/src, apps/web/src and e2e.
 *
 * Layers point down only. A rule names what a layer may NOT import; anything not forbidden is
 * allowed. Tests (`*.test.ts(x)`) are not cruised: they sit on top, import whatever they test
 * and are imported by nothing, so they can close no cycle (the lint script's globs leave them
 * out; the test helpers in `src/test/` are cruised and are top layer).
 *
 * Server, lowest first (each may import the ones before it):
 *   lib, config.ts     pure helpers and the configuration: know nothing of the app
 *   db                 connection, schema, migrations, SQL and tenancy helpers, the event bus
 *   providers          sms, map, storage, wechat: an interface and its adapters
 *   context.ts         the composition types: AppContext, Job, the outbox's handler table
 *   plugins            fastify plugins: envelope, auth guards, operation log, route()
 *   modules            the features (routes, services, repositories, presenters); no cycles
 *                      between them, and none reads another's repository
 *   jobs               scheduled checks and the outbox's handlers by topic: compose modules
 *   app.ts, main.ts, bootstrap.ts, seed/, tools/, test/   the top: build and run everything
 *
 * Zero exceptions: no rule below has a `pathNot` that lets a known offender through. One that
 * is ever needed carries a comment saying why and the issue that removes it.
 */

const server = '^apps/server/src/'
// The top of the server: what builds and runs everything; no layer below imports it.
const top = 'app\\.ts|main\\.ts|bootstrap\\.ts|seed/|tools/|test/'
const test = '(\\.test\\.tsx?$|^apps/server/src/test/|^apps/web/src/test/)'

/** A layer rule: files in `from` may not import files in `to` (test helpers excepted). */
function layer(name, comment, from, to) {
  return { name, comment, severity: 'error', from: { path: from, pathNot: test }, to: { path: to } }
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Files that import each other (directly or around a loop) cannot be understood, tested or ' +
        'loaded one at a time; a cycle also hides which of the two is the lower layer. Type-only ' +
        'imports count: a type shared by two files belongs in a third, lower one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-server-modules',
      comment:
        'Two features that reach into each other are one feature in two folders: neither can be ' +
        'changed or read alone. Modules form a tree; what two of them share goes to contracts, a ' +
        'lower layer, or a small port of the lower module.',
      severity: 'error',
      scope: 'folder',
      from: { path: `${server}modules/[^/]+/?$` },
      to: { path: `${server}modules/[^/]+/?$`, circular: true },
    },

    // ---- server layers -------------------------------------------------------------------------
    layer(
      'server-lib-is-the-bottom',
      'lib/ and config.ts are helpers every layer uses; importing the database, providers, the ' +
        'context, plugins, features or jobs would make them part of the app they serve.',
      `${server}(lib/|config\\.ts$)`,
      `${server}(db/|providers/|context\\.ts|plugins/|modules/|jobs/|${top})`,
    ),
    layer(
      'server-db-below-providers',
      'db/ (connection, schema, SQL helpers) is used by every repository; it knows nothing of ' +
        'providers, the context, plugins, features or jobs.',
      `${server}db/`,
      `${server}(providers/|context\\.ts|plugins/|modules/|jobs/|${top})`,
    ),
    layer(
      'server-providers-below-context',
      'A provider (sms, map, storage, wechat) is an interface and its adapters, configured from ' +
        'config; it is handed to the app in the context, not built from it.',
      `${server}providers/`,
      `${server}(context\\.ts|plugins/|modules/|jobs/|${top})`,
    ),
    layer(
      'server-context-is-a-type-of-lower-parts',
      'context.ts is the composition type: config, db, lib services and providers. A plugin or ' +
        "a feature's type in it would tie every service to that plugin or feature.",
      `${server}context\\.ts$`,
      `${server}(plugins/|modules/|jobs/|${top})`,
    ),
    layer(
      'server-plugins-below-modules',
      'Plugins (envelope, guards, operation log, route()) serve every feature; a plugin that ' +
        "reads a feature's repository makes that feature a dependency of all the others.",
      `${server}plugins/`,
      `${server}(modules/|jobs/|${top})`,
    ),
    layer(
      'server-modules-below-jobs',
      'Features are composed by jobs/ and app.ts, never the other way round: a feature that ' +
        'imports the job runner or the app cannot be tested without them.',
      `${server}modules/`,
      `${server}(jobs/|${top})`,
    ),
    layer(
      'server-jobs-below-app',
      'jobs/ composes features into scheduled work; app.ts, main.ts and the tools compose jobs.',
      `${server}jobs/`,
      `${server}(${top})`,
    ),
    {
      name: 'server-no-other-modules-repository',
      comment:
        "A feature reaches another feature through that feature's service, rules, presenter or a " +
        'small exported port (`*.port.ts`), never its repository: the owner keeps its SQL, its ' +
        'tenancy conditions and its invariants in one place (docs/module-pattern.md).',
      severity: 'error',
      from: { path: `${server}modules/([^/]+)/`, pathNot: test },
      to: { path: `${server}modules/[^/]+/.+\\.repository\\.ts$`, pathNot: `${server}modules/$1/` },
    },

    // ---- contracts -----------------------------------------------------------------------------
    {
      name: 'contracts-import-no-app',
      comment:
        'Contracts are shared by the server, the console and the tests; anything they import from ' +
        'an app would be shipped to the other one.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^(apps|e2e)/' },
    },

    // ---- web console ---------------------------------------------------------------------------
    layer(
      'web-lib-components-below-features',
      'lib/ and components/ are the shared toolbox of every page; a feature or the app shell ' +
        'inside them makes every page load that feature.',
      '^apps/web/src/(lib|components)/',
      '^apps/web/src/(features|app)/',
    ),
    layer(
      'web-i18n-imports-no-feature',
      "i18n/index.ts sets up the languages; each feature's texts are found by file name, so the " +
        'set-up does not import a feature.',
      '^apps/web/src/i18n/',
      '^apps/web/src/(features|app)/',
    ),
    layer(
      'web-features-below-app',
      'app/ (router, layout, guard, live channel) composes the features; a feature that imports ' +
        'it cannot be rendered or tested without the whole shell.',
      '^apps/web/src/features/',
      '^apps/web/src/app/',
    ),
    {
      name: 'web-feature-public-surface',
      comment:
        "A feature reaches another feature only through that feature's public surface: its " +
        '`index.ts(x)` and its `api/` (query keys and hooks). Components, pages, hooks and rules ' +
        'inside a feature are its own to change.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: test },
      to: {
        path: '^apps/web/src/features/[^/]+/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/(index\\.tsx?$|api/)'],
      },
    },

    {
      name: 'web-rescue-page-is-light',
      comment:
        "The responder's alert page (src/rescue/, its own Vite entry rescue.html) opens from an SMS " +
        'on a phone outdoors and must load in 3 s on slow 4G: nothing it reaches, directly or ' +
        "through lib/, may be the console's (features, components, the app shell, its i18n set-up) " +
        'or one of the heavy libraries (antd, maplibre, echarts, react-query, i18next, the router). ' +
        'The built entry is held to 200 KB of JavaScript (gzip) by e2e/rescue-page.spec.ts.',
      severity: 'error',
      from: { path: '^apps/web/src/rescue/', pathNot: test },
      to: {
        reachable: true,
        path:
          '^apps/web/src/(features|components|app|i18n)/|' +
          'node_modules/(antd|@ant-design|maplibre-gl|echarts|@tanstack|i18next|react-i18next|react-router|dayjs|supercluster)/',
      },
    },

    // ---- end-to-end tests ----------------------------------------------------------------------
    {
      name: 'e2e-imports-contracts-only',
      comment:
        'The end-to-end tests drive the product from outside, as a user and a device would; of ' +
        'our code they may use the shared contracts only, never an app from inside.',
      severity: 'error',
      from: { path: '^e2e/' },
      to: { path: '^(apps|packages/(?!contracts/))' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests are left out (see the top): counted in, they would join every folder they test into
    // one for the module-level cycle check (a module's test imports the test harness, which
    // imports the app). dependency-cruiser 17 derives folders before applying `exclude` to the
    // files a glob names, hence the lint script's `!(*.test)` globs too.
    exclude: { path: '(^|/)(node_modules|dist|data)/|\\.test\\.tsx?$' },
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with, so Babel turns the
    // .ts(x) files into JavaScript first, keeping type-only imports (see the file's comment).
    babelConfig: { fileName: '.dependency-cruiser.babel.cjs' },
    // Imports carry `.ts` extensions on the server and none in the console; `@aed/contracts/*`
    // resolves through the workspace link and the package's `exports`. The tsconfigs declare no
    // `paths` or `baseUrl` (and dependency-cruiser reads a tsconfig through the TypeScript API,
    // which TypeScript 7 lacks), so these options are TypeScript's Bundler resolution here.
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
    cache: false,
  },
}
