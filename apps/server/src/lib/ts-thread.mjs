// Starts a TypeScript module in a worker thread: the server runs under tsx, whose loader a
// worker does not inherit on Node 20 (`execArgv: ['--import', 'tsx']` fails there), so the
// worker registers it itself and then imports `workerData.entry` (a file URL).
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)
