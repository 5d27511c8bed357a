import { COVERAGE_RADIUS_M } from '@aed/contracts/coverage'
import { Card, Col, Row, Skeleton, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useListState } from '../../../components/DataTable/useListState'
import type { FilterField } from '../../../components/FilterForm/types'
import { FilterCard } from '../../../components/ListPage/FilterCard'
import { useCoverage } from '../api/useCoverage'
import { CoverageDistrictChart } from '../components/CoverageDistrictChart'
import { CoverageFigures } from '../components/CoverageFigures'
import { CoverageMap } from '../components/CoverageMap'
import { ExportButton } from '../components/ExportButton'
import { coveragePresets, coverageQuery, DEFAULT_COVERAGE_PRESET } from '../coverageQuery'
import '../coverage.css'

/** /emergency/coverage: how many calls had a ready AED near and a responder coming, by district, and where the calls without cover were. */
export function CoveragePage() {
  const { t } = useTranslation()
  const list = useListState()
  const query = coverageQuery(list.filters)
  const coverage = useCoverage(query)
  const data = coverage.data
  const fields: FilterField[] = [
    {
      name: 'period',
      title: t('coverage.period'),
      type: 'custom_time_select',
      presets: coveragePresets((days) => t('coverage.lastDays', { count: days })),
      initialValue: DEFAULT_COVERAGE_PRESET,
    },
    { name: 'address_code', title: t('coverage.region'), type: 'city_select' },
  ]
  const period = data ? t('coverage.periodShown', { start: data.start_date, end: data.end_date }) : ''
  const uncovered = data?.totals.uncovered ?? 0

  return (
    <div className="page coverage-page" data-testid="coverage-page">
      <FilterCard list={list} fields={fields} />
      <Card
        title={
          <span>
            {t('coverage.title')} <Typography.Text type="secondary">{period}</Typography.Text>
          </span>
        }
        extra={<ExportButton query={query} />}
      >
        {data ? <CoverageFigures data={data} /> : <Skeleton active />}
      </Card>
      <Row gutter={[16, 16]} className="coverage-panels">
        <Col xs={24} xl={10}>
          <Card title={t('coverage.byDistrict')} size="small">
            {data ? <CoverageDistrictChart districts={data.districts} /> : <Skeleton active />}
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <Card
            size="small"
            title={t('coverage.uncoveredMap', { count: uncovered })}
            extra={
              data && data.points.length < uncovered ? (
                <Typography.Text type="secondary">
                  {t('coverage.uncoveredShown', { shown: data.points.length, count: uncovered })}
                </Typography.Text>
              ) : null
            }
          >
            <Typography.Paragraph type="secondary" className="coverage-map-hint">
              {t('coverage.uncoveredHint', { radius: COVERAGE_RADIUS_M })}
            </Typography.Paragraph>
            <CoverageMap points={data?.points ?? []} />
          </Card>
        </Col>
      </Row>
    </div>
  )
}
