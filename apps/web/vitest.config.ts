import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// Both react-router entry points from the same ESM build: otherwise the test runner may load
// 'react-router' and 'react-router/dom' from different builds, each with its own router context.
const esm = (specifier: string) => fileURLToPath(import.meta.resolve(specifier))

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: esm('react-router') },
      { find: /^react-router\/dom$/, replacement: esm('react-router/dom') },
    ],
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    testTimeout: 20_000,
  },
})
