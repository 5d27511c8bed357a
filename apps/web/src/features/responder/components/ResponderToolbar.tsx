import { DownloadOutlined, PlusOutlined } from '@ant-design/icons'
import { Button, Space } from 'antd'
import { useTranslation } from 'react-i18next'
import type { ListState } from '../../../components/DataTable/useListState'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useExportResponders } from '../api/useExportResponders'
import { ResponderImportButton } from './ResponderImportButton'

type Props = {
  list: ListState
  /** The list's `can.create` (aid_man EDIT): register and import. */
  canCreate: boolean
  onAdd: () => void
}

/** The list's toolbar: 导出 for everyone; 导入 and 登记 for those who may register. */
export function ResponderToolbar({ list, canCreate, onAdd }: Props) {
  const { t } = useTranslation()
  const { userInfo } = useSession()
  const tree = useAgencyTree()
  const exporter = useExportResponders()
  // System organisations (0) and general agents (1) import into an organisation of their subtree.
  const pickAgency = (userInfo?.agency_type ?? 2) < 2
  return (
    <Space wrap>
      <Button
        icon={<DownloadOutlined />}
        loading={exporter.isPending}
        onClick={() => exporter.mutate({ filters: list.filters, order_by: list.order_by })}
        data-testid="responder-export"
      >
        {t('responder.export')}
      </Button>
      {canCreate && <ResponderImportButton tree={tree.data ?? []} pickAgency={pickAgency} />}
      {canCreate && (
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd} data-testid="responder-add">
          {t('responder.add')}
        </Button>
      )}
    </Space>
  )
}
