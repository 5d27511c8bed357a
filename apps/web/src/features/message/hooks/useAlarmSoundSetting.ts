import { settingsApi } from '@aed/contracts/settings'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { settingsKeys } from '../../settings/api/keys'

/** Whether alarms sound: the organisation's alarm_sound, or on (the default) when the member cannot read it. */
export function useAlarmSoundSetting(): boolean {
  const canRead = useAreaLevel('agency').level !== null
  const settings = useQuery({
    queryKey: settingsKeys.detail('own'),
    queryFn: ({ signal }) => callApi(settingsApi.get, { signal }),
    enabled: canRead,
  })
  return !canRead || (settings.data?.alarm_sound ?? 1) === 1
}
