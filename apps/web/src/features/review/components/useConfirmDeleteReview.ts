import type { ThirdPartyAed, Volunteer } from '@aed/contracts/review'
import { useTranslation } from 'react-i18next'
import { useConfirmDelete } from '../../../lib/useConfirmDelete'
import { useDeleteThirdPartyAed } from '../api/useDeleteThirdPartyAed'
import { useDeleteVolunteer } from '../api/useDeleteVolunteer'

/** 是否删除公共志愿者{name}, then delete (删除成功！ is the server's). */
export function useConfirmDeleteVolunteer() {
  const { t } = useTranslation()
  return useConfirmDelete(useDeleteVolunteer(), (v: Volunteer) => ({
    title: t('review.deleteTitle'),
    content: t('review.deleteVolunteer', { name: v.submitter_name }),
  }))
}

/** 是否删除第三方AED（brand place）, then delete. */
export function useConfirmDeleteThirdPartyAed() {
  const { t } = useTranslation()
  return useConfirmDelete(useDeleteThirdPartyAed(), (a: ThirdPartyAed) => ({
    title: t('review.deleteTitle'),
    content: t('review.deleteAed', { name: `${a.brand} ${a.location}` }),
  }))
}
