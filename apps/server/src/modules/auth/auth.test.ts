import { authApi, type BodyIn, Code, menuApi } from '@aed/contracts'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accounts, agencies, members, smsCodes } from '../../db/schema.ts'
import { createTestApp, DEMO_PASSWORD, demo, fileTestApp, type TestApp } from '../../test/harness.ts'

const t = fileTestApp()

type LoginBody = BodyIn<typeof authApi.login>
/** A console sign-in by password unless the test says otherwise. */
const loginBody = (body: Partial<LoginBody> & Pick<LoginBody, 'mobile'>): LoginBody => ({
  login_way: 1,
  member_type: 3,
  ...body,
})
const login = (body: Partial<LoginBody> & Pick<LoginBody, 'mobile'>, lang?: 'en-US') =>
  t.api(authApi.login, { body: loginBody(body), lang })

async function accountOf(phone: string) {
  const [a] = await t.db.select().from(accounts).where(eq(accounts.phone, phone))
  return a
}

describe('password sign-in', () => {
  it('signs in the demo super administrator, whitespace stripped', async () => {
    const r = await login({ mobile: ' 138 0000 0000 ', password: ` ${DEMO_PASSWORD} ` })
    expect(r.code).toBe(0)
    expect(r.data.token).toMatch(/^ey/)
    expect(r.data.agency_list).toHaveLength(1)
  })

  it('answers the spec messages for bad input, in the requested language', async () => {
    expect(await login({ mobile: '11000000000', password: 'x' })).toMatchObject({
      code: 1,
      msg: '请输入正确的手机号',
    })
    expect((await login({ mobile: '1380000', password: 'x' }, 'en-US')).msg).toBe(
      'Please enter a valid mobile number',
    )
    expect(await login({ mobile: demo.superAdmin })).toMatchObject({ code: 1, msg: '请输入密码' })
    expect(await login({ mobile: demo.superAdmin, login_way: 2 })).toMatchObject({
      code: 1,
      msg: '请输入验证码',
    })
    // member_type 1 (not a console user), which the body type does not allow: a raw call.
    const app = await t.call('POST', authApi.login.path, {
      body: { ...loginBody({ mobile: demo.superAdmin, password: 'x' }), member_type: 1 },
    })
    expect(app.code).toBe(1)
  })

  it('refuses a wrong password and an unknown phone with the same message', async () => {
    const a = await login({ mobile: demo.general, password: 'Wrong1234' })
    const b = await login({ mobile: '13912345678', password: 'Wrong1234' })
    expect(a).toMatchObject({ code: 1, msg: '手机号或密码错误' })
    expect(b.msg).toBe(a.msg)
  })

  it('locks an account after repeated failures, even against the right password', async () => {
    for (let i = 0; i < 4; i++)
      expect((await login({ mobile: demo.njAdmin, password: 'Wrong1234' })).code).toBe(1)
    const fifth = await login({ mobile: demo.njAdmin, password: 'Wrong1234' })
    expect(fifth.code).toBe(Code.LOCKED)
    expect(fifth.msg).toContain('分钟后再试')
    expect((await login({ mobile: demo.njAdmin, password: DEMO_PASSWORD })).code).toBe(Code.LOCKED)
    await t.db.update(accounts).set({ locked_until: null }).where(eq(accounts.phone, demo.njAdmin))
    expect((await login({ mobile: demo.njAdmin, password: DEMO_PASSWORD })).code).toBe(0)
  })

  it('flags a password older than 90 days', async () => {
    await t.db
      .update(accounts)
      .set({ password_changed_at: sql`now() - interval '91 days'` })
      .where(eq(accounts.phone, demo.szAdmin))
    expect((await login({ mobile: demo.szAdmin, password: DEMO_PASSWORD })).data.password_expired).toBe(true)
    expect((await login({ mobile: demo.xmPhone, password: DEMO_PASSWORD })).data.password_expired).toBe(false)
  })
})

describe('SMS codes and phone sign-in', () => {
  const sms = (mobile: string, scene: BodyIn<typeof authApi.smsCode>['scene'] = 'login') =>
    t.api(authApi.smsCode, { body: { mobile, scene } })

  it('sends a code, stores only its hash, and signs in with it once', async () => {
    expect((await sms(demo.eastAdmin)).code).toBe(0)
    const code = (await t.lastSmsCode(demo.eastAdmin))!
    expect(code).toMatch(/^\d{6}$/)
    const [stored] = await t.db.select().from(smsCodes).where(eq(smsCodes.phone, demo.eastAdmin))
    expect(stored.code_hash).not.toContain(code)
    expect(
      (
        await login({
          mobile: demo.eastAdmin,
          login_way: 2,
          sms_code: '000000' === code ? '111111' : '000000',
        })
      ).msg,
    ).toBe('验证码错误或已过期')
    expect((await login({ mobile: demo.eastAdmin, login_way: 2, sms_code: code })).code).toBe(0)
    expect((await login({ mobile: demo.eastAdmin, login_way: 2, sms_code: code })).code).toBe(1)
  })

  it('refuses a resend within 60 seconds', async () => {
    expect((await sms(demo.southAdmin)).code).toBe(0)
    const again = await sms(demo.southAdmin)
    expect(again.code).toBe(Code.RATE_LIMITED)
    expect(again.msg).toMatch(/请\d+秒后再试/)
  })

  it('limits codes per phone per day and per address per hour', async () => {
    const phone = '13700000001'
    await t.db.insert(smsCodes).values(
      Array.from({ length: 10 }, () => ({
        phone,
        scene: 'login',
        code_hash: 'x',
        ip: '10.9.9.9',
        create_time: sql`now() - interval '2 hours'` as unknown as Date,
        expire_time: new Date(),
      })),
    )
    expect((await sms(phone)).msg).toBe('该手机号今日验证码发送次数已达上限')
    await t.db.insert(smsCodes).values(
      Array.from({ length: 30 }, (_, i) => ({
        phone: `1360000${String(i).padStart(4, '0')}`,
        scene: 'login',
        code_hash: 'x',
        ip: '127.0.0.1',
        expire_time: new Date(),
      })),
    )
    expect((await sms('13500000001')).msg).toBe('请求过于频繁，请稍后再试')
    await t.db.delete(smsCodes).where(eq(smsCodes.code_hash, 'x'))
  })

  it('does not accept a code sent for another purpose', async () => {
    expect((await sms(demo.hzAdmin, 'forget')).code).toBe(0)
    const code = (await t.lastSmsCode(demo.hzAdmin))!
    expect((await login({ mobile: demo.hzAdmin, login_way: 2, sms_code: code })).code).toBe(1)
  })

  it('asks accounts with SMS dual verification for a code after the password', async () => {
    await t.db.update(accounts).set({ sms_dual_verify: true }).where(eq(accounts.phone, demo.admin))
    const first = await login({ mobile: demo.admin, password: DEMO_PASSWORD })
    expect(first).toMatchObject({ code: Code.NEED_SMS_CODE, msg: '请输入验证码' })
    await sms(demo.admin)
    const code = (await t.lastSmsCode(demo.admin))!
    expect((await login({ mobile: demo.admin, password: DEMO_PASSWORD, sms_code: code })).code).toBe(0)
    await t.db.update(accounts).set({ sms_dual_verify: false }).where(eq(accounts.phone, demo.admin))
  })
})

describe('organisations of one account', () => {
  it('lists both memberships and switches between them with a new token', async () => {
    const r = await login({ mobile: demo.multi, password: DEMO_PASSWORD })
    expect(r.data.agency_list.map((m) => m.agency_name).sort()).toEqual([
      '杭州市西湖区急救中心',
      '深圳市南山区急救站',
    ])
    const list = await t.api(authApi.memberships, { token: r.data.token })
    expect(list.data.count).toBe(2)
    const other = list.data.resource.find((m) => !m.current)!
    const sw = await t.api(authApi.switchMembership, { token: r.data.token, body: { member_id: other.id } })
    expect(sw.code).toBe(0)
    expect(sw.data.id).toBe(other.id)
    expect(sw.data.token).not.toBe(r.data.token)
  })

  it('refuses to switch into a membership of another account', async () => {
    const token = await t.login(demo.multi)
    const [foreign] = await t.db
      .select({ id: members.id })
      .from(members)
      .innerJoin(accounts, eq(accounts.id, members.account_id))
      .where(eq(accounts.phone, demo.superAdmin))
    const r = await t.api(authApi.switchMembership, { token, body: { member_id: foreign.id } })
    expect(r).toMatchObject({ code: 1, msg: '未找到该机构的成员身份' })
  })
})

describe('session validity', () => {
  it('answers -1 without a token or with a forged one', async () => {
    expect((await t.api(menuApi.menu)).code).toBe(Code.TOKEN)
    expect((await t.api(menuApi.menu, { token: 'abc.def.ghi' })).code).toBe(Code.TOKEN)
    const forged = `${(await t.login(demo.general)).slice(0, -4)}AAAA`
    expect((await t.api(menuApi.menu, { token: forged })).code).toBe(Code.TOKEN)
  })

  it('stops expired memberships signing in and ends their live tokens', async () => {
    const token = await t.login(demo.southAdmin)
    const acc = await accountOf(demo.southAdmin)
    await t.db
      .update(members)
      .set({ use_expire: sql`now() - interval '1 minute'` })
      .where(eq(members.account_id, acc.id))
    expect(await login({ mobile: demo.southAdmin, password: DEMO_PASSWORD })).toMatchObject({
      code: 1,
      msg: '账号使用期限已到期',
    })
    expect((await t.api(menuApi.menu, { token })).code).toBe(Code.TOKEN)
    await t.db.update(members).set({ use_expire: null }).where(eq(members.account_id, acc.id))
  })

  it('a disabled agency disables every agency below it, at once', async () => {
    const token = await t.login(demo.hzAdmin)
    await t.db.update(agencies).set({ disabled: true }).where(eq(agencies.name, '华东区域总代理'))
    expect((await t.api(menuApi.menu, { token })).code).toBe(Code.TOKEN)
    expect((await login({ mobile: demo.hzAdmin, password: DEMO_PASSWORD })).msg).toBe('所在机构已被禁用')
    // The multi-organisation account keeps its Shenzhen membership only.
    const multi = await login({ mobile: demo.multi, password: DEMO_PASSWORD })
    expect(multi.data.agency_list.map((m) => m.agency_name)).toEqual(['深圳市南山区急救站'])
    await t.db.update(agencies).set({ disabled: false }).where(eq(agencies.name, '华东区域总代理'))
    expect((await t.api(menuApi.menu, { token })).code).toBe(0)
  })
})

describe('passwords', () => {
  const reset = (token: string, body: BodyIn<typeof authApi.resetPassword>) =>
    t.api(authApi.resetPassword, { token, body })

  it('validates the rule and the confirmation', async () => {
    const token = await t.login(demo.xmPhone)
    expect(
      (await reset(token, { password: 'short1', password_again: 'short1', old_password: DEMO_PASSWORD })).msg,
    ).toBe('密码必需包含8-20位字母和数字！')
    expect(
      (await reset(token, { password: 'abcdefgh', password_again: 'abcdefgh', old_password: DEMO_PASSWORD }))
        .msg,
    ).toBe('密码必需包含8-20位字母和数字！')
    expect(
      (await reset(token, { password: 'Abcd1234', password_again: 'Abcd12345', old_password: DEMO_PASSWORD }))
        .msg,
    ).toBe('两次密码不一致')
    expect((await reset(token, { password: 'Abcd1234', password_again: 'Abcd1234' })).msg).toBe(
      '请输入原密码',
    )
    expect(
      (await reset(token, { password: 'Abcd1234', password_again: 'Abcd1234', old_password: 'Nope12345' }))
        .msg,
    ).toBe('原密码错误')
  })

  it('a change ends the other sessions and keeps this one on a new token', async () => {
    const mine = await t.login(demo.xmPhone)
    const other = await t.login(demo.xmPhone)
    const r = await reset(mine, {
      password: 'NewPass2026',
      password_again: 'NewPass2026',
      old_password: DEMO_PASSWORD,
    })
    expect(r).toMatchObject({ code: 0, msg: '修改成功！' })
    expect((await t.api(menuApi.menu, { token: other })).code).toBe(Code.TOKEN)
    expect((await t.api(menuApi.menu, { token: mine })).code).toBe(Code.TOKEN)
    expect((await t.api(menuApi.menu, { token: r.data.token })).code).toBe(0)
    expect((await login({ mobile: demo.xmPhone, password: 'NewPass2026' })).code).toBe(0)
  })

  it('forgot password: an SMS code sets a new password', async () => {
    const phone = demo.eastAdmin
    const forget = (body: BodyIn<typeof authApi.forgetPassword>) => t.api(authApi.forgetPassword, { body })
    expect(
      (await forget({ phone: '12000000000', sms_code: '1', password: 'Abcd1234', re_password: 'Abcd1234' }))
        .msg,
    ).toBe('请输入正确的手机号')
    expect(
      (await forget({ phone, sms_code: '123456', password: 'Abcd1234', re_password: 'Abcd1234' })).msg,
    ).toBe('验证码错误或已过期')
    await t.db.delete(smsCodes).where(eq(smsCodes.phone, phone))
    await t.api(authApi.smsCode, { body: { mobile: phone, scene: 'forget' } })
    const code = (await t.lastSmsCode(phone))!
    expect(
      (await forget({ phone, sms_code: code, password: 'Forgot2026', re_password: 'Forgot2026' })).code,
    ).toBe(0)
    expect((await login({ mobile: phone, password: 'Forgot2026' })).code).toBe(0)
    expect((await login({ mobile: phone, password: DEMO_PASSWORD })).code).toBe(1)
  })
})

describe('security settings', () => {
  it('switches SMS dual verification for one’s own account, confirmed by the password', async () => {
    const token = await t.login(demo.szAdmin)
    const before = await t.api(authApi.security, { token })
    expect(before.data.sms_dual_verify).toBe(false)
    const wrong = await t.api(authApi.setSecurity, {
      token,
      body: { sms_dual_verify: true, password: 'Nope1234' },
    })
    expect(wrong.msg).toBe('原密码错误')
    const on = await t.api(authApi.setSecurity, {
      token,
      body: { sms_dual_verify: true, password: DEMO_PASSWORD },
    })
    expect(on).toMatchObject({ code: 0, data: { sms_dual_verify: true } })
    expect((await login({ mobile: demo.szAdmin, password: DEMO_PASSWORD })).code).toBe(Code.NEED_SMS_CODE)
    // Another account is untouched.
    expect((await login({ mobile: demo.hzAdmin, password: DEMO_PASSWORD })).code).toBe(0)
    await t.api(authApi.setSecurity, {
      token,
      body: { sms_dual_verify: false, password: DEMO_PASSWORD },
    })
    expect((await login({ mobile: demo.szAdmin, password: DEMO_PASSWORD })).code).toBe(0)
  })
})

describe('SMS codes: who gets one, and limits per address and overall', () => {
  let s: TestApp
  beforeAll(async () => {
    s = await createTestApp({
      env: { SMS_IP_MINUTE_LIMIT: '3', SMS_IP_HOURLY_LIMIT: '5', SMS_GLOBAL_HOURLY_LIMIT: '4' },
    })
  })
  afterAll(() => s.close())

  /** Asks for a code from a client address (the test client is a trusted local proxy). */
  const ask = async (mobile: string, from: string, scene = 'login', remoteAddress?: string) => {
    const res = await s.app.inject({
      method: authApi.smsCode.method,
      url: authApi.smsCode.path,
      payload: { mobile, scene },
      headers: { 'x-forwarded-for': from },
      ...(remoteAddress ? { remoteAddress } : {}),
    })
    return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: unknown }) }
  }
  const rowsOf = (phone: string) => s.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))
  /** Messages the local provider sent to a phone. */
  const outbox = async (phone: string) => {
    const r = await s.db.execute(sql`SELECT count(*)::int AS n FROM sms_outbox WHERE phone = ${phone}`)
    return (r as unknown as { rows: { n: number }[] }).rows[0].n
  }
  const clear = () => s.db.delete(smsCodes)

  it('sends only to numbers with an account, answering numbers without one exactly alike', async () => {
    await clear()
    const scenes = ['login', 'forget', 'bind_wx'] as const
    const known = [demo.eastAdmin, demo.southAdmin, demo.hzAdmin]
    const unknown = ['13911110001', '13911110002', '13911110003']
    for (const [i, scene] of scenes.entries()) {
      const a = await ask(known[i], `198.51.100.${i + 1}`, scene)
      const b = await ask(unknown[i], `198.51.100.${i + 11}`, scene)
      expect(a).toMatchObject({ status: 200, code: 0, msg: '验证码已发送' })
      expect(b).toEqual(a)
      expect(await s.lastSmsCode(known[i])).toMatch(/^\d{6}$/)
      expect(await s.lastSmsCode(unknown[i])).toBeNull()
      // Both count: a resend inside 60 s is refused alike.
      const againKnown = await ask(known[i], `198.51.100.${i + 1}`, scene)
      const againUnknown = await ask(unknown[i], `198.51.100.${i + 11}`, scene)
      expect(againKnown.code).toBe(Code.RATE_LIMITED)
      expect(againUnknown).toEqual(againKnown)
      await clear()
    }
    // Nothing a number without an account holds can sign in or reset a password.
    await ask('13911110004', '198.51.100.21')
    for (const guess of ['000000', '123456', 'unsent']) {
      const r = await s.api(authApi.login, {
        body: { mobile: '13911110004', sms_code: guess, login_way: 2, member_type: 3 },
      })
      expect(r.msg).toBe('验证码错误或已过期')
    }
  })

  it('caps requests per client address in a minute and in an hour, unknown numbers included', async () => {
    await clear()
    const from = '203.0.113.7'
    expect((await ask('13911120001', from)).code).toBe(0)
    expect((await ask(demo.njAdmin, from)).code).toBe(0)
    expect((await ask('13911120002', from)).code).toBe(0)
    const fourth = await ask(demo.szAdmin, from)
    expect(fourth).toMatchObject({ code: Code.RATE_LIMITED, msg: '请求过于频繁，请稍后再试' })
    expect(await outbox(demo.szAdmin)).toBe(0)
    // Another address is not held back.
    expect((await ask(demo.szAdmin, '203.0.113.8')).code).toBe(0)
    // Older than a minute but inside the hour: the hourly cap (5) still counts them.
    await s.db
      .update(smsCodes)
      .set({ create_time: sql`now() - interval '10 minutes'` })
      .where(eq(smsCodes.ip, from))
    expect((await ask('13911120003', from)).code).toBe(0)
    expect((await ask('13911120004', from)).code).toBe(0)
    expect((await ask('13911120005', from, 'forget')).msg).toBe('请求过于频繁，请稍后再试')
    expect(await rowsOf('13911120005')).toHaveLength(0)
  })

  it('takes the client address from X-Forwarded-For only when a trusted proxy sends it', async () => {
    await clear()
    // A client on a public address cannot pose as many clients by forging the header.
    for (let i = 1; i <= 3; i++) {
      expect((await ask(`1391113000${i}`, `192.0.2.${i}`, 'login', '198.18.0.9')).code).toBe(0)
    }
    expect((await ask('13911130009', '192.0.2.99', 'login', '198.18.0.9')).msg).toBe(
      '请求过于频繁，请稍后再试',
    )
    const [row] = await rowsOf('13911130001')
    expect(row.ip).toBe('198.18.0.9')
  })

  it('caps codes sent overall in an hour, for every number and address alike', async () => {
    await clear()
    const before = await outbox(demo.szAdmin)
    // Requests to numbers without an account send nothing, so they do not use up the overall cap.
    for (let i = 0; i < 6; i++) {
      expect((await ask(`1391114000${i}`, `100.64.1.${i}`)).code).toBe(0)
    }
    const sent = [demo.eastAdmin, demo.southAdmin, demo.hzAdmin, demo.njAdmin]
    for (const [i, phone] of sent.entries()) expect((await ask(phone, `100.64.2.${i}`)).code).toBe(0)
    const known = await ask(demo.szAdmin, '100.64.3.1')
    expect(known).toMatchObject({ code: Code.RATE_LIMITED, msg: '验证码发送繁忙，请稍后再试' })
    expect(await ask('13911140009', '100.64.3.2')).toEqual(known)
    expect(await outbox(demo.szAdmin)).toBe(before)
    // An hour later the cap is free again.
    await s.db.update(smsCodes).set({ create_time: sql`now() - interval '61 minutes'` })
    expect((await ask(demo.szAdmin, '100.64.3.1')).code).toBe(0)
    expect(await outbox(demo.szAdmin)).toBe(before + 1)
  })

  it('takes the limits from the configuration, with defaults', async () => {
    const { loadConfig } = await import('../../config.ts')
    expect(loadConfig({})).toMatchObject({
      SMS_PHONE_DAILY_LIMIT: 10,
      SMS_IP_MINUTE_LIMIT: 5,
      SMS_IP_HOURLY_LIMIT: 30,
      SMS_GLOBAL_HOURLY_LIMIT: 1000,
      TRUST_PROXY: 'loopback,linklocal,uniquelocal',
    })
    expect(loadConfig({ SMS_IP_MINUTE_LIMIT: '7', TRUST_PROXY: 'false' })).toMatchObject({
      SMS_IP_MINUTE_LIMIT: 7,
      TRUST_PROXY: false,
    })
    expect(() => loadConfig({ SMS_GLOBAL_HOURLY_LIMIT: '0' })).toThrow(/SMS_GLOBAL_HOURLY_LIMIT/)
  })
})
