import { DownloadOutlined } from '@ant-design/icons'
import { App, Button } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Filters } from '../../../components/DataTable/listParams'
import { downloadUrl } from '../../../lib/download'
import { useExportOperationLog } from '../api/useExportOperationLog'
import { logQuery } from '../logQuery'

const PROGRESS_KEY = 'operation-log-export'

/** Exports the filtered log: the server writes the file, the browser downloads file_url. */
export function ExportButton({ filters }: { filters: Filters }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const exporter = useExportOperationLog()
  const run = async () => {
    message.loading({ content: t('operationLog.exporting'), key: PROGRESS_KEY, duration: 0 })
    try {
      const { file_url, count } = await exporter.mutateAsync(logQuery(filters))
      downloadUrl(file_url)
      message.success({ content: t('operationLog.exported', { count }), key: PROGRESS_KEY })
    } catch {
      message.destroy(PROGRESS_KEY)
    }
  }
  return (
    <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={run} data-testid="log-export">
      {exporter.isPending ? t('operationLog.exportingShort') : t('operationLog.export')}
    </Button>
  )
}
