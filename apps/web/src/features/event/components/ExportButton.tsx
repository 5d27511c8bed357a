import { EVENT_EXPORT_FILE_NAMES, type EventKind } from '@aed/contracts/event'
import { DownloadOutlined } from '@ant-design/icons'
import { App, Button } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Filters } from '../../../components/DataTable/listParams'
import { downloadUrl } from '../../../lib/download'
import { eventQuery } from '../api/eventQuery'
import { useExportEvents } from '../api/useExportEvents'

const PROGRESS_KEY = 'event-export'

type Props = { kind: EventKind; current: boolean; filters: Filters }

/** Exports the tab's filtered events: the server writes the .xlsx, the browser downloads file_url. */
export function ExportButton({ kind, current, filters }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const exporter = useExportEvents()
  const run = async () => {
    message.loading({ content: t('event.exporting'), key: PROGRESS_KEY, duration: 0 })
    try {
      const { file_url, count } = await exporter.mutateAsync({ kind, query: eventQuery(filters, current) })
      downloadUrl(file_url, EVENT_EXPORT_FILE_NAMES[kind])
      message.success({ content: t('event.exported', { count }), key: PROGRESS_KEY })
    } catch {
      message.destroy(PROGRESS_KEY)
    }
  }
  return (
    <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={run} data-testid="event-export">
      {t('event.export')}
    </Button>
  )
}
