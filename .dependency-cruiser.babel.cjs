/**
 * How dependency-cruiser reads TypeScript here (used by .dependency-cruiser.cjs only).
 *
 * dependency-cruiser parses .ts/.tsx with the TypeScript compiler API (TypeScript 7 has none)
 * or with swc (whose .tsx support needs dependency-cruiser 18, which needs Node 22). So Babel
 * turns each file into JavaScript that dependency-cruiser's own parser reads. Babel drops
 * `import type` and `export type ... from`; the plugin below turns them into plain imports
 * first, because a type-only import couples two files as much as any other (and the project's
 * `verbatimModuleSyntax` makes every such import explicit).
 */
function keepTypeOnlyImports() {
  const asValue = (node) => {
    if (node.importKind === 'type' || node.importKind === 'typeof') node.importKind = 'value'
    if (node.exportKind === 'type') node.exportKind = 'value'
  }
  return {
    name: 'keep-type-only-imports',
    visitor: {
      Program(path) {
        for (const statement of path.node.body) {
          if (
            statement.type === 'ImportDeclaration' ||
            (statement.type === 'ExportNamedDeclaration' && statement.source) ||
            statement.type === 'ExportAllDeclaration'
          ) {
            asValue(statement)
            for (const specifier of statement.specifiers ?? []) asValue(specifier)
          }
        }
      },
    },
  }
}

module.exports = {
  babelrc: false,
  configFile: false,
  plugins: [keepTypeOnlyImports, ['@babel/plugin-transform-react-jsx', { runtime: 'automatic' }]],
  presets: [['@babel/preset-typescript', { onlyRemoveTypeImports: true }]],
}
