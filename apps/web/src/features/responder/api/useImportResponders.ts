import { responderApi } from '@aed/contracts/responder'
import { useImportFile } from '../../../components/ImportPopover/useImportFile'
import { responderKeys } from './keys'

/**
 * The responder import: every row or none; a refusal (导入失败！, shown by the request client)
 * downloads the rows and their reasons as 导入失败文件.xlsx.
 */
export const useImportResponders = () => useImportFile(responderApi.importResponders, responderKeys.all)
