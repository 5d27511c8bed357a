import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const page = (file: string) => fileURLToPath(new URL(file, import.meta.url))

export default defineConfig({
  plugins: [react()],
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
