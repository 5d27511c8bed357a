import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { dialogOk, inputOf, pickOption, pickRegion, pickTreeOption } from './support/antd.ts'
import { screenshot, useBrowser } from './support/browser.ts'
import { openSignedIn, signIn } from './support/session.ts'

const b = useBrowser()
const ORG = '宁波市海曙区急救站'
const PHONE = '13966668888'
const PASSWORD = 'Ningbo2026'

describe('administration journeys', () => {
  let admin: Awaited<ReturnType<typeof b.open>>

  it('creates an organisation under a general agent', async () => {
    admin = await openSignedIn(b, '13800000000')
    await admin.goto('/organizationalManagement/organizational')
    await admin.getByTestId('organisations-page').waitFor()
    await admin.getByTestId('agency-add').click()
    const modal = admin.getByTestId('agency-modal')
    await admin.getByTestId('agency-name').fill(ORG)
    await pickOption(admin, 'agency-type', '普通机构')
    await pickOption(admin, 'agency-parent', '华东区域总代理')
    await admin.getByTestId('agency-contact').fill('陈海')
    await admin.getByTestId('agency-phone').fill('057487001234')
    await pickRegion(admin, admin, '海曙', '海曙区')
    await admin.getByTestId('agency-location').fill('中山西路138号')
    await screenshot(admin, 'admin-01-new-organisation')
    await dialogOk(admin).click()
    await admin.getByText('添加成功！').waitFor()
    await modal.waitFor({ state: 'hidden' })
    await admin.locator('.ant-table-row', { hasText: ORG }).first().waitFor()
    await screenshot(admin, 'admin-02-organisations')
  })

  it('creates a user in it with edit rights on users', async () => {
    await admin.goto('/users/permission')
    await admin.getByTestId('users-page').waitFor()
    await admin.getByTestId('member-add').click()
    await admin.getByTestId('member-phone').fill(PHONE)
    await admin.getByTestId('member-name').fill('陈海')
    await admin.getByTestId('member-email').fill('chenhai@aed.example.cn')
    await pickOption(admin, 'member-nationality', '中国')
    await pickTreeOption(admin, 'member-agency', ORG)
    await pickOption(admin, 'member-role', '管理员')
    await admin.getByTestId('member-password').fill(PASSWORD)
    await inputOf(admin, 'member-location').fill('浙江省宁波市海曙区中山西路138号')
    await inputOf(admin, 'member-lat').fill('29.8683')
    await inputOf(admin, 'member-lon').fill('121.5440')
    const users = admin.getByTestId('permission-member')
    await users.locator('.ant-checkbox-input').check()
    await users.getByText('可编辑').click()
    await screenshot(admin, 'admin-03-new-user')
    await dialogOk(admin).click()
    await admin.getByText('添加成功！').waitFor()
    await admin.locator('.ant-table-row', { hasText: '陈海' }).filter({ hasText: ORG }).first().waitFor()
  })

  let user: Awaited<ReturnType<typeof b.open>>

  it('the new user sees only that organisation', async () => {
    user = await b.open('/user/login')
    await signIn(user, PHONE, PASSWORD)
    // An administrator-set password is due for change at the first sign-in: the security prompt
    // comes, and is ignored.
    const ignore = user.getByTestId('expiry-ignore')
    await ignore.click({ timeout: 10_000 })
    await ignore.waitFor({ state: 'hidden' })
    await user.waitForURL(/\/watchBoard\/dashboard/)
    await user.getByTestId('nav-menu').getByText('用户管理').waitFor()
    await user.goto('/users/permission')
    // The organisation column comes with the menu entry it depends on: wait for it to be drawn.
    await user.locator('.ant-table-row', { hasText: ORG }).first().waitFor()
    await expect
      .poll(async () => {
        const rows = await user.locator('.ant-table-row').allInnerTexts()
        return rows.length > 0 && rows.every((r) => r.includes(ORG))
      })
      .toBe(true)
    await screenshot(user, 'admin-04-user-sees-own-organisation')
    // New rows default to read-only system management: the organisation tree holds theirs alone.
    await user.goto('/organizationalManagement/organizational')
    const tree = user.getByTestId('agency-tree')
    await tree.getByText(ORG).waitFor()
    expect(await tree.innerText()).not.toContain('华东区域总代理')
    const orgs = await user.locator('.ant-table-row').allInnerTexts()
    expect(orgs).toHaveLength(1)
    expect(await user.getByTestId('agency-add').count()).toBe(0)
    await screenshot(user, 'admin-05-user-organisation-tree')
  })

  it('disabling the organisation signs that user out', async () => {
    await admin.goto('/organizationalManagement/organizational')
    const row = admin.locator('.ant-table-row', { hasText: ORG }).first()
    await row.getByRole('button', { name: '禁用' }).click()
    await admin.getByText('下级机构').first().waitFor()
    await screenshot(admin, 'admin-06-disable-confirm')
    await dialogOk(admin).click()
    await admin.getByText('禁用成功！').waitFor()
    await user.goto('/users/permission')
    await user.waitForURL(/\/user\/login/)
    await screenshot(user, 'admin-07-signed-out')
    await signIn(user, PHONE, PASSWORD)
    await user.getByText('所在机构已被禁用').waitFor()
  })

  it('exports the operation log as a spreadsheet that opens', async () => {
    await admin.goto('/systemManagement/operationLog')
    await admin.getByTestId('operation-log-page').waitFor()
    await admin.locator('.ant-table-row').first().waitFor()
    await screenshot(admin, 'admin-08-operation-log')
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByTestId('log-export').click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^系统操作日志.*\.xlsx$/)
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aed-xlsx-')), 'log.xlsx')
    await download.saveAs(file)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(file)
    const sheet = book.worksheets[0]
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '操作人',
      '操作类型',
      '操作内容',
      '所属机构',
      '操作时间',
    ])
    const types = sheet.getColumn(2).values as unknown[]
    for (const done of ['新增机构', '新建用户', '禁用/启用机构']) expect(types).toContain(done)
    const contents = (sheet.getColumn(3).values as unknown[]).join('\n')
    expect(contents).toContain(`禁用机构及其下级机构：${ORG}`)
  })
})
