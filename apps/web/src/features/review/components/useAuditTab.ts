import { AUDIT_TABS, AuditStatus } from '@aed/contracts/review'
import { useSearchParams } from 'react-router'

/** The URL key of the tab: absent for 审核中 (1), else the audit_status of the tab. */
export const TAB_KEY = 'audit_status'

/** The tab in the URL (in review unless it names another) and its switch, which keeps the filters and goes to page 1. */
export function useAuditTab() {
  const [params, setParams] = useSearchParams()
  const asked = Number(params.get(TAB_KEY))
  const status =
    params.has(TAB_KEY) && (AUDIT_TABS as readonly number[]).includes(asked) ? asked : AuditStatus.IN_REVIEW
  const switchTab = (next: number) =>
    setParams((p) => {
      const out = new URLSearchParams(p)
      if (next === AuditStatus.IN_REVIEW) out.delete(TAB_KEY)
      else out.set(TAB_KEY, String(next))
      out.delete('page')
      return out
    })
  return { status, switchTab }
}
