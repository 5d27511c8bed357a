import { useMutation } from '@tanstack/react-query'
import { exportOperationLog } from './operationLogApi'

/** Asks the server for an .xlsx of every matching row. */
export function useExportOperationLog() {
  return useMutation({ mutationFn: exportOperationLog })
}
