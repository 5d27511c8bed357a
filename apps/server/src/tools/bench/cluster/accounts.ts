import fs from 'node:fs'
import path from 'node:path'
import { openPostgres } from '../../../db/client.ts'
import { createSealer } from '../../../lib/sealed.ts'
import { registerSecrets } from '../../../modules/gateway/mqtt-dynsec.repository.ts'
import { registeredOf } from '../../../modules/gateway/mqtt-dynsec.service.ts'
import { dynsecFile } from '../../../modules/gateway/mqtt-dynsec-file.ts'

// The devices' broker accounts written straight into Mosquitto's dynamic-security file, as
// tools/dynsec-file.ts does: through $CONTROL the plugin saves its whole file after every command,
// so 20,000 devices would take about 35 minutes. The bench writes the file while nothing changes
// the plugin's state (the servers' first reconcile done, no device queued) and restarts Mosquitto.

/**
 * Writes `file` with an account and a role for every device and cabinet of the register at
 * `databaseUrl` (secrets opened with `deviceSecretKey`), keeping its owner; answers the accounts
 * written and the ms it took.
 */
export async function writeRegisterAccounts(file: string, databaseUrl: string, deviceSecretKey: string) {
  const t = performance.now()
  const database = await openPostgres(databaseUrl)
  const rows = await registerSecrets(database.db, null).finally(() => database.close())
  const register = registeredOf({ sealer: createSealer(deviceSecretKey) }, rows, new Date())
  const config = dynsecFile(
    JSON.parse(fs.readFileSync(file, 'utf8')),
    [...register.values()].map((r) => r.reg),
  )
  const stat = fs.statSync(file)
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.bench`)
  fs.writeFileSync(tmp, JSON.stringify(config), { mode: 0o600 })
  fs.chownSync(tmp, stat.uid, stat.gid)
  fs.renameSync(tmp, file)
  return { accounts: config.clients?.length ?? 0, ms: performance.now() - t }
}
