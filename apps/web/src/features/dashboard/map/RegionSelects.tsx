import { Select, Space } from 'antd'
import { useTranslation } from 'react-i18next'
import { useRegionOptions } from '../../../components/RegionPicker/useRegionOptions'
import { selectorLevels } from './regionView'

type Props = {
  /** [province, city, district] codes chosen so far; [] the whole country. */
  path: readonly string[]
  /** The new path and the chosen region's name (undefined for the whole country). */
  onChange: (path: string[], name: string | undefined) => void
}

const COUNTRY = ''

/**
 * The dashboard's three cascading region selectors: the province list starts with the whole
 * country; a municipality's (and Hong Kong's and Macao's) second selector lists its districts.
 */
export function RegionSelects({ path, onChange }: Props) {
  const { t } = useTranslation()
  const tree = useRegionOptions()
  const { provinces, cities, districts, province, city } = selectorLevels(tree.data ?? [], path)
  const option = (o: { value: string; label: string }) => ({ value: o.value, label: o.label })
  return (
    <Space.Compact className="dashboard-regions" data-testid="dashboard-regions">
      <Select
        value={path[0] ?? COUNTRY}
        loading={tree.isPending}
        style={{ width: 140 }}
        showSearch={{ optionFilterProp: 'label' }}
        options={[{ value: COUNTRY, label: t('dashboard.region.country') }, ...provinces.map(option)]}
        onChange={(v: string) =>
          onChange(v === COUNTRY ? [] : [v], provinces.find((p) => p.value === v)?.label)
        }
        data-testid="dashboard-province"
        aria-label={t('dashboard.region.province')}
      />
      <Select
        value={path[1]}
        placeholder={t('dashboard.region.city')}
        disabled={cities.length === 0}
        allowClear
        style={{ width: 150 }}
        showSearch={{ optionFilterProp: 'label' }}
        options={cities.map(option)}
        onChange={(v: string | undefined) =>
          v
            ? onChange([path[0], v], cities.find((c) => c.value === v)?.label)
            : onChange([path[0]], province?.label)
        }
        data-testid="dashboard-city"
        aria-label={t('dashboard.region.city')}
      />
      <Select
        value={path[2]}
        placeholder={t('dashboard.region.district')}
        disabled={districts.length === 0}
        allowClear
        style={{ width: 150 }}
        showSearch={{ optionFilterProp: 'label' }}
        options={districts.map(option)}
        onChange={(v: string | undefined) =>
          v
            ? onChange([path[0], path[1], v], districts.find((d) => d.value === v)?.label)
            : onChange([path[0], path[1]], city?.label)
        }
        data-testid="dashboard-district"
        aria-label={t('dashboard.region.district')}
      />
    </Space.Compact>
  )
}
