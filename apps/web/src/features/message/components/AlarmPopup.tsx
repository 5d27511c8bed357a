import { Modal } from 'antd'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useAlarmSound } from '../hooks/useAlarmSound'
import { useAlarmSoundSetting } from '../hooks/useAlarmSoundSetting'
import { type Alarm, useAlarms } from '../hooks/useAlarms'
import { useHandleMessage } from '../hooks/useHandleMessage'
import { AlarmCard } from './AlarmCard'
import { AutoplayDialog } from './AutoplayDialog'
import '../message.css'

/** The looping alarm sound (public/alarm.wav). */
export const ALARM_SOUND_URL = `${import.meta.env.BASE_URL}alarm.wav`

/**
 * Opens on a live alarm and lists every open one; each closes on its own, and with the last
 * the popup closes and the sound stops. The sound starts with the first alarm when the
 * organisation's alarm_sound is on.
 */
export function AlarmPopup() {
  const { t } = useTranslation()
  const { alarms, close, closeAll } = useAlarms()
  const { handle, pending } = useHandleMessage()
  const soundOn = useAlarmSoundSetting()
  const audio = useRef<HTMLAudioElement>(null)
  const open = alarms.length > 0
  const sound = useAlarmSound(audio, open && soundOn)
  const colour = alarms.some((a) => a.type === 2) ? 2 : 4

  const onHandle = (alarm: Alarm) => {
    if (alarm.msg_id === null) return
    const message = {
      id: alarm.msg_id,
      msg_type: alarm.type,
      event_type: alarm.event_type,
      event_id: alarm.event_id,
    }
    handle(message).then(
      () => close(alarm.key),
      () => undefined,
    )
  }

  return (
    <>
      {/* biome-ignore lint/a11y/useMediaCaption: an alarm tone has no words to caption */}
      <audio ref={audio} src={ALARM_SOUND_URL} loop preload="auto" data-testid="alarm-audio" />
      <Modal
        open={open}
        title={`${t('message.alarm.title')} (${alarms.length})`}
        onCancel={closeAll}
        footer={null}
        mask={{ closable: false }}
        width={440}
        rootClassName={`alarm-popup alarm-popup-${colour}`}
        destroyOnHidden
      >
        {open && (
          <div data-testid="alarm-popup" data-colour={colour === 2 ? 'red' : 'orange'}>
            {alarms.map((alarm) => (
              <AlarmCard
                key={alarm.key}
                alarm={alarm}
                pending={alarm.msg_id !== null && pending === alarm.msg_id}
                onHandle={() => onHandle(alarm)}
                onClose={() => close(alarm.key)}
              />
            ))}
          </div>
        )}
      </Modal>
      <AutoplayDialog open={open && sound.blocked} onPlay={sound.start} />
    </>
  )
}
