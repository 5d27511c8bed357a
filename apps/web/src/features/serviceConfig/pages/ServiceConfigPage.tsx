import { AgencyType, RoleType } from '@aed/contracts'
import { flattenTree } from '@aed/contracts/agency-rules'
import type { AppService } from '@aed/contracts/app-service'
import { App, Card } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListCard } from '../../../components/ListCard/ListCard'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useConstants } from '../../system/api/useConstants'
import { useServiceConfigList } from '../api/useServiceConfigList'
import { ServiceConfigModal, type ServiceDialog } from '../components/ServiceConfigModal'
import { useServiceConfigColumns } from '../components/useServiceConfigColumns'

/** /systemManagement/serviceConfig: 机构服务配置, for super administrators of the system organisation. */
export function ServiceConfigPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const list = useListState()
  const rows = useServiceConfigList(list)
  const { userInfo } = useSession()
  const tree = useAgencyTree()
  const constants = useConstants()
  const services = constants.data?.app_service ?? {}
  const [dialog, setDialog] = useState<ServiceDialog | null>(null)
  const allowed = userInfo?.agency_type === AgencyType.SYSTEM && userInfo.role_type === RoleType.SUPER_ADMIN
  const open = (next: ServiceDialog) =>
    allowed ? setDialog(next) : message.error(t('serviceConfig.forbidden'))
  const columns = useServiceConfigColumns({
    onDetail: (s: AppService) => open({ mode: 'detail', id: s.id }),
    onModify: (s: AppService) => open({ mode: 'modify', id: s.id }),
  })
  const fields: FilterField[] = [
    {
      name: 'agency_id',
      title: t('serviceConfig.agency'),
      type: 'select_search',
      options: flattenTree(tree.data ?? []).map((n) => ({ value: n.id, label: n.name })),
    },
    {
      name: 'service',
      title: t('serviceConfig.service'),
      type: 'select',
      options: Object.entries(services).map(([value, label]) => ({ value, label })),
    },
    {
      name: 'start_time',
      title: t('serviceConfig.applyTime'),
      type: 'date_range',
      hasExtraName: 'end_time',
      span: 8,
    },
  ]

  return (
    <div className="page" data-testid="service-config-page">
      <Card className="filter-card">
        <FilterForm fields={fields} values={list.filters} onSearch={list.search} onReset={list.refresh} />
      </Card>
      <ListCard
        title={t('serviceConfig.list')}
        add={{
          label: t('serviceConfig.add'),
          onClick: () => open({ mode: 'create' }),
          testId: 'service-add',
        }}
      >
        <DataTable<AppService> list={list} columns={columns} rowKey={(s) => s.id} query={rows} />
      </ListCard>
      <ServiceConfigModal
        dialog={dialog}
        services={services}
        tree={tree.data ?? []}
        onClose={() => setDialog(null)}
      />
    </div>
  )
}
