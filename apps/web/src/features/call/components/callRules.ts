import { CALL_TIME_SKEW_MS, callFields } from '@aed/contracts/call'
import { type Lang, translate } from '@aed/contracts/messages'
import type { Rule } from 'antd/es/form'
import type { Dayjs } from 'dayjs'
import type { LatLon } from '../../../components/MapView/datum'
import { callInstant } from './callFormValues'
import { contractProblem, contractRule, ruleOf } from './contractRule'

type Field = 'phone' | 'place' | 'location' | 'call_time' | 'description'

/** The 登记呼救 form's rules, with the contract's messages: what the server would answer, said before sending. */
export function callRules(lang: Lang): Record<Field, Rule[]> {
  return {
    phone: [contractRule(callFields.phone, lang)],
    place: [
      ruleOf((point: LatLon | null | undefined) =>
        point
          ? (contractProblem(callFields.lat, point.lat, lang) ??
            contractProblem(callFields.lon, point.lon, lang))
          : translate('CALL_PLACE_REQUIRED', lang),
      ),
    ],
    location: [contractRule(callFields.location, lang)],
    call_time: [
      ruleOf((time: Dayjs | null | undefined) =>
        time && callInstant(time).valueOf() > Date.now() + CALL_TIME_SKEW_MS
          ? translate('CALL_TIME_FUTURE', lang)
          : null,
      ),
    ],
    description: [contractRule(callFields.description, lang)],
  }
}
