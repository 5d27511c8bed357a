import { deviceIoApi } from '@aed/contracts/device-io'
import { useImportFile } from '../../../components/ImportPopover/useImportFile'
import { deviceKeys } from './keys'

/**
 * The factory import: uploads the filled template with its progress; a refusal (导入失败！, shown
 * by the request client) downloads the rows and their reasons as 导入失败文件.xlsx.
 */
export const useImportDevices = () => useImportFile(deviceIoApi.importDevices, deviceKeys.all)
