import { DownloadOutlined } from '@ant-design/icons'
import { App, Button } from 'antd'
import { useTranslation } from 'react-i18next'
import { downloadUrl } from '../../../lib/download'
import { useExportCoverage } from '../api/useExportCoverage'
import type { CoverageQueryIn } from '../coverageQuery'

const PROGRESS_KEY = 'coverage-export'

/** 导出: the server writes the period's calls into an .xlsx, the browser downloads file_url. */
export function ExportButton({ query }: { query: CoverageQueryIn }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const exporter = useExportCoverage()
  const run = async () => {
    message.loading({ content: t('coverage.exporting'), key: PROGRESS_KEY, duration: 0 })
    try {
      const { file_url, count } = await exporter.mutateAsync(query)
      downloadUrl(file_url)
      message.success({ content: t('coverage.exported', { count }), key: PROGRESS_KEY })
    } catch {
      message.destroy(PROGRESS_KEY)
    }
  }
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={exporter.isPending}
      onClick={run}
      data-testid="coverage-export"
    >
      {exporter.isPending ? t('coverage.exportingShort') : t('coverage.export')}
    </Button>
  )
}
