import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const page = (file: string) => fileURLToPath(new URL(file, import.meta.url))

/** In development too, /rescue/{token} opens the alert page, as the server answers it when built. */
const rescuePageInDev: Plugin = {
  name: 'rescue-page-in-dev',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && /^\/rescue(\/|\?|$)/.test(req.url)) req.url = '/rescue.html'
      next()
    })
  },
}

export default defineConfig({
  plugins: [react(), rescuePageInDev],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
      // Uploaded files and exports are served by the API server.
      '/files': { target: 'http://127.0.0.1:8080' },
      // The responder's alert page (rescue.html) calls its own API without sign-in.
      '/responder-api': { target: 'http://127.0.0.1:8080' },
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 2500,
    // Two pages: the console, and the responder's alert page /rescue/{token} (its own light
    // entry: no console code, src/rescue/).
    rollupOptions: { input: { main: page('index.html'), rescue: page('rescue.html') } },
  },
})
