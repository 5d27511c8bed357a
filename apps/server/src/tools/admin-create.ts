// `npm run admin:create -- --phone 13900000000 --name 张三 [--agency 名称] [--password ...]`
// Creates the system agency (when there is none) and its first super administrator, for a
// production database started with SEED_DEMO=false. Without --password it reads ADMIN_PASSWORD
// or asks on the terminal.
import readline from 'node:readline/promises'
import { parseArgs } from 'node:util'
import { LOGIN_PHONE, PASSWORD_RULE } from '@aed/contracts'
import { and, eq } from 'drizzle-orm'
import { openDatabase } from '../bootstrap.ts'
import { loadConfigOrExit } from '../config.ts'
import { migrate } from '../db/migrate.ts'
import { accounts, agencies, members } from '../db/schema.ts'
import { DataDirLockedError, lockDataDir } from '../lib/data-lock.ts'
import { hashPassword } from '../lib/passwords.ts'
import { insertAgency } from '../modules/agency/agency.repository.ts'

function fail(message: string): never {
  console.error(message)
  process.exit(1)
}

async function main() {
  const { values } = parseArgs({
    options: {
      phone: { type: 'string' },
      name: { type: 'string' },
      agency: { type: 'string', default: 'AED云平台' },
      password: { type: 'string' },
    },
  })
  if (!values.phone || !LOGIN_PHONE.test(values.phone))
    fail('--phone must be an 11-digit mainland mobile number')
  if (!values.name?.trim()) fail('--name is required')
  let password = values.password ?? process.env.ADMIN_PASSWORD
  if (!password) {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout })
    password = (await rl.question('Password (8-20 characters, letters and digits): ')).trim()
    rl.close()
  }
  if (!PASSWORD_RULE.test(password)) fail('The password must be 8-20 characters with letters and digits')

  const config = loadConfigOrExit()
  try {
    lockDataDir(config.dataDir)
  } catch (e) {
    if (e instanceof DataDirLockedError)
      fail(`${e.message}\nStop the server first: PGlite allows one process.`)
    throw e
  }
  const database = await openDatabase(config)
  await migrate(database)
  const { db } = database

  const result = await db.transaction(async (tx) => {
    let [system] = await tx.select().from(agencies).where(eq(agencies.agency_type, 0)).limit(1)
    if (system) {
      const [existing] = await tx
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.agency_id, system.id), eq(members.role_type, 0)))
        .limit(1)
      if (existing) return 'exists' as const
    } else {
      system = await insertAgency(tx, {
        name: values.agency!,
        agency_type: 0,
        parent_id: null,
        address_code: null,
        location: null,
        contact_name: values.name!,
        phone: values.phone!,
      })
    }
    const [taken] = await tx.select().from(accounts).where(eq(accounts.phone, values.phone!)).limit(1)
    const accountId =
      taken?.id ??
      (
        await tx
          .insert(accounts)
          .values({
            phone: values.phone!,
            name: values.name!.trim(),
            password_hash: await hashPassword(password),
          })
          .returning({ id: accounts.id })
      )[0].id
    await tx
      .insert(members)
      .values({ account_id: accountId, agency_id: system.id, role_type: 0, permissions: {} })
    return system.name
  })
  await database.close()
  if (result === 'exists')
    fail('A super administrator of the system agency already exists; nothing was changed.')
  console.log(
    `Created super administrator ${values.phone} in ${result}. Sign in with that phone and password.`,
  )
  process.exit(0)
}

void main()
