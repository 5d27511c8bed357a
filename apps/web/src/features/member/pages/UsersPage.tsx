import type { Member } from '@aed/contracts/member'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { agencyFilter, filterIf, selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListPage } from '../../../components/ListPage/ListPage'
import { withoutActions } from '../../../components/TableColumns/actionsColumn'
import { useDict } from '../../../lib/useDict'
import { useRecordDialogState } from '../../../lib/useRecordDialogState'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { menuHas, ORGANISATION_MENU } from '../../menu'
import { useMenu } from '../../menu/api/useMenu'
import { useMemberList } from '../api/useMemberList'
import { AuthorityModal } from '../components/AuthorityModal'
import { MemberModal } from '../components/MemberModal'
import { useMemberColumns } from '../components/useMemberColumns'
import { useConfirmDeleteMember } from '../hooks/useConfirmDeleteMember'

/** /users/permission: 用户列表 with add, edit, 权限管理 and delete. */
export function UsersPage() {
  const { t } = useTranslation()
  const { options } = useDict()
  const list = useListState()
  const rows = useMemberList(list)
  const { token } = useSession()
  const menu = useMenu(token)
  const tree = useAgencyTree()
  // Add and the actions column: the list's `can` (EDIT on users); each row's actions follow its own `can`.
  const canCreate = rows.data?.can.create ?? false
  const dialog = useRecordDialogState()
  const [authority, setAuthority] = useState<Member | null>(null)
  const confirmDelete = useConfirmDeleteMember()
  const columns = useMemberColumns({
    onEdit: dialog.edit,
    onAuthority: setAuthority,
    onDelete: confirmDelete,
  })

  const withOrganisations = menuHas(menu.data, ORGANISATION_MENU)
  const fields: FilterField[] = [
    textFilter('name', t('member.name'), t('member.nameRequired')),
    selectFilter('role', t('member.role'), options('role_type')),
    ...filterIf(withOrganisations, agencyFilter(t('member.agency'), tree.data ?? [], 'agency')),
    textFilter('phone', t('member.phone'), t('member.phoneRequired')),
  ]

  return (
    <ListPage
      testId="users-page"
      list={list}
      fields={fields}
      title={t('member.list')}
      add={canCreate && { label: t('member.add'), onClick: dialog.add, testId: 'member-add' }}
      dialogs={
        <>
          <MemberModal {...dialog.modal} tree={tree.data ?? []} canCreate={canCreate} />
          <AuthorityModal member={authority} onClose={() => setAuthority(null)} />
        </>
      }
    >
      <DataTable<Member>
        list={list}
        columns={canCreate ? columns : withoutActions(columns)}
        rowKey={(m) => m.id}
        query={rows}
      />
    </ListPage>
  )
}
