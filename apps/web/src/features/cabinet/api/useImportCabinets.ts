import { CABINET_IMPORT_FAILURE_FILE_NAME, cabinetApi } from '@aed/contracts/cabinet'
import { useImportFile } from '../../../components/ImportPopover/useImportFile'
import { cabinetKeys } from './keys'

/**
 * The cabinet import: uploads the filled template with its progress; a refusal (导入失败！, shown
 * by the request client) downloads the rows and their reasons as 导入失败文件.xlsx.
 */
export const useImportCabinets = () =>
  useImportFile(cabinetApi.importCabinets, cabinetKeys.all, CABINET_IMPORT_FAILURE_FILE_NAME)
