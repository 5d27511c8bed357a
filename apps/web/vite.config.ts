import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
      // Uploaded files and exports are served by the API server.
      '/files': { target: 'http://127.0.0.1:8080' },
    },
  },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2500 },
})
