import { DEVICE_MODELS } from '@aed/contracts/constants'
import type { StorageProvider } from '../../providers/storage/storage-provider.ts'

/** Where the factory-device import template is kept in storage. */
export const TEMPLATE_KEY = 'templates/device-import-template.xlsx'
/** Columns of the factory-device import, in order. */
export const TEMPLATE_HEADERS = ['设备SN', '型号', '固件版本'] as const
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** Builds the template: one sheet to fill in, one with the rules and the model codes. */
export async function buildTemplate(): Promise<Buffer> {
  // Loaded on first use only, like every export: most requests never need a spreadsheet library.
  const { default: ExcelJS } = await import('exceljs')
  const wb = new ExcelJS.Workbook()
  wb.creator = 'AED Cloud'
  const sheet = wb.addWorksheet('设备导入')
  sheet.columns = TEMPLATE_HEADERS.map((header) => ({ header, width: 24 }))
  sheet.getRow(1).font = { bold: true }
  sheet.getColumn(1).numFmt = '@'
  const models = Object.values(DEVICE_MODELS)
  for (let r = 2; r <= 1001; r++) {
    sheet.getCell(r, 1).numFmt = '@'
    sheet.getCell(r, 2).dataValidation = {
      type: 'list',
      allowBlank: true,
      formulae: [`"${models.join(',')}"`],
    }
  }
  const help = wb.addWorksheet('填写说明')
  help.columns = [{ width: 16 }, { width: 60 }]
  help.addRows([
    ['列', '说明'],
    ['设备SN', '必填，设备机身上的序列号，每行一台设备，不能重复'],
    ['型号', '可不填：按设备SN第2-3位自动识别（见下表）；填写时须与识别结果一致'],
    ['固件版本', '选填，例如 V1.2.3'],
    [],
    ['SN第2-3位', '型号'],
    ...Object.entries(DEVICE_MODELS),
  ])
  help.getRow(1).font = { bold: true }
  help.getRow(6).font = { bold: true }
  return Buffer.from(await wb.xlsx.writeBuffer())
}

const made = new WeakMap<StorageProvider, Promise<string>>()

/** The template's URL; written to storage once per process, on the first request that needs it. */
export function importTemplateUrl(storage: StorageProvider): Promise<string> {
  let url = made.get(storage)
  if (!url) {
    url = buildTemplate().then(async (body) => (await storage.put(TEMPLATE_KEY, body, XLSX)).url)
    // A failed write is retried by the next request instead of being remembered.
    url.catch(() => made.delete(storage))
    made.set(storage, url)
  }
  return url
}
