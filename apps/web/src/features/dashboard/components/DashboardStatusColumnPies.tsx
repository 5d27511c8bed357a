import { routeAllowed } from '@aed/contracts'
import type { StateDistribution } from '@aed/contracts/device-stats'
import { Statistic } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { EChart } from '../../../components/EChart/EChart'
import { STATUS_HEX, STATUS_PAGES, statusCounts } from '../../../lib/deviceStatus'
import { routeFor } from '../../../lib/guard'
import { useDict } from '../../../lib/useDict'
import { useSession } from '../../../lib/useSession'

const REST_HEX = '#f0f0f0'

/** A share as the pies print it: one decimal at most, 0% of nothing. */
export function percent(count: number, total: number): string {
  return `${total > 0 ? Math.round((count / total) * 1000) / 10 : 0}%`
}

/** Total devices and rescues, then one pie per status; a pie with an event page the member may open links to it. */
export function DashboardStatusColumnPies({ state }: { state: StateDistribution }) {
  const { t } = useTranslation()
  const { label } = useDict()
  const { permissions } = useSession()
  const pageOf = (status: number) => {
    const page = STATUS_PAGES[status]
    const route = page ? routeFor(page) : undefined
    return route && routeAllowed(route.permissions, permissions) ? page : undefined
  }
  const total = state.all_count
  return (
    <>
      <div className="dashboard-figures">
        <div data-testid="dashboard-total">
          <Statistic title={t('dashboard.stats.total')} value={total} />
        </div>
        <div data-testid="dashboard-rescues">
          <Statistic title={t('dashboard.stats.rescues')} value={state.rescue_event_count} />
        </div>
      </div>
      <div className="dashboard-pies">
        {statusCounts(state).map(([status, count]) => {
          const page = pageOf(status)
          const name = label('device_status', status)
          const option = {
            color: [STATUS_HEX[status], REST_HEX],
            series: [
              {
                type: 'pie',
                radius: ['62%', '88%'],
                cursor: page ? 'pointer' : 'default',
                stillShowZeroSum: false,
                label: { show: false },
                emphasis: { scale: false },
                data: [
                  { name, value: count },
                  { name: t('dashboard.stats.rest'), value: Math.max(0, total - count) },
                ],
              },
            ],
          }
          const body = (
            <>
              <div className="dashboard-pie-chart">
                <EChart option={option} height={84} testId={`dashboard-pie-${status}`} />
                <span className="dashboard-pie-percent">{percent(count, total)}</span>
              </div>
              <div className="dashboard-pie-caption" title={name}>
                {name}
              </div>
              <strong className="dashboard-pie-count">{count}</strong>
            </>
          )
          // A real link: the caption, the keyboard and a middle click open the page too.
          return page ? (
            <Link key={status} to={page} className="dashboard-pie dashboard-pie-link">
              {body}
            </Link>
          ) : (
            <div key={status} className="dashboard-pie">
              {body}
            </div>
          )
        })}
      </div>
    </>
  )
}
