// `npx tsx apps/server/src/tools/dynsec-file.ts --in dynamic-security.json [--out FILE]`
// Writes Mosquitto's dynamic security file with an account and a role for every live AED and
// cabinet of the register (MQTT_AUTH=mosquitto-dynsec), keeping the file's other accounts (the
// server's admin, operators'). For a broker that must hold many devices at once (a first start,
// a benchmark): stop Mosquitto, write the file, start it; the server's reconcile then finds
// nothing to do. Reads the database and DEVICE_SECRET_KEY (or DATA_DIR's) as the server does.
import fs from 'node:fs'
import { parseArgs } from 'node:util'
import { openDatabase } from '../bootstrap.ts'
import { loadConfigOrExit } from '../config.ts'
import { createSealer } from '../lib/sealed.ts'
import { persistentSecret } from '../lib/secrets.ts'
import { registerSecrets } from '../modules/gateway/mqtt-dynsec.repository.ts'
import { registeredOf } from '../modules/gateway/mqtt-dynsec.service.ts'
import { dynsecFile } from '../modules/gateway/mqtt-dynsec-file.ts'

async function main() {
  const { values } = parseArgs({ options: { in: { type: 'string' }, out: { type: 'string' } } })
  if (!values.in) {
    console.error('--in is required: the plugin file to start from (mosquitto_ctrl dynsec init makes one)')
    process.exit(1)
  }
  const config = loadConfigOrExit()
  const sealer = createSealer(
    config.DEVICE_SECRET_KEY ?? persistentSecret(config.dataDir, 'device_secret_key'),
  )
  const database = await openDatabase(config)
  const started = Date.now()
  const rows = await registerSecrets(database.db, null)
  await database.close()
  const register = registeredOf({ sealer }, rows, new Date())
  const existing = JSON.parse(fs.readFileSync(values.in, 'utf8'))
  const file = dynsecFile(
    existing,
    [...register.values()].map((r) => r.reg),
  )
  const out = values.out ?? values.in
  fs.writeFileSync(`${out}.tmp`, `${JSON.stringify(file)}\n`, { mode: 0o600 })
  fs.renameSync(`${out}.tmp`, out)
  console.log(
    `${out}: ${register.size} devices and cabinets, ${file.clients?.length} accounts, ${Date.now() - started} ms`,
  )
}

await main()
