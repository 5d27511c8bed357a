import type { UserInfo } from '@aed/contracts'
import { ArrowLeftOutlined, WechatOutlined } from '@ant-design/icons'
import { Button, Divider, Spin, Tooltip } from 'antd'
import { lazy, Suspense, useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LanguageSwitch } from '../../../components/LanguageSwitch'
import { LazyMount } from '../../../components/LazyMount'
import { LegalLinks } from '../../../components/LegalLinks'
import type { LegalKind } from '../../../components/LegalModal'
import { Logo } from '../../../components/Logo'
import { EcgLine } from '../components/EcgLine'
import { LoginForm } from '../components/LoginForm'
import { useBrowserPosition } from '../hooks/useBrowserPosition'
import { useCompleteSignIn } from '../hooks/useCompleteSignIn'
import { useWechatLoginReturn } from '../hooks/useWechatLoginReturn'

// What the sign-in opens only on demand loads on demand, keeping the first load small.
const ForgotPasswordModal = lazy(() =>
  import('../components/ForgotPasswordModal').then((m) => ({ default: m.ForgotPasswordModal })),
)
const OrgPickerModal = lazy(() =>
  import('../components/OrgPickerModal').then((m) => ({ default: m.OrgPickerModal })),
)
const WechatQrPanel = lazy(() =>
  import('../components/WechatQrPanel').then((m) => ({ default: m.WechatQrPanel })),
)
const LegalModal = lazy(() =>
  import('../../../components/LegalModal').then((m) => ({ default: m.LegalModal })),
)

/** /user/login: password, phone and WeChat sign-in with the organisation picker; asks the browser's position. */
export function LoginPage() {
  const { t } = useTranslation()
  const complete = useCompleteSignIn()
  const [picker, setPicker] = useState<UserInfo | null>(null)
  const [mode, setMode] = useState<'form' | 'wechat'>('form')
  const [forgotOpen, setForgotOpen] = useState(false)
  const [legal, setLegal] = useState<LegalKind | null>(null)

  const signedIn = useCallback(
    (info: UserInfo) => (info.agency_list.length > 1 ? setPicker(info) : complete(info)),
    [complete],
  )
  const { signingIn } = useWechatLoginReturn(signedIn)
  useBrowserPosition()
  const features = t('login.features', { returnObjects: true }) as unknown as string[]

  return (
    <div className="login-page">
      <header className="login-topbar">
        <div className="login-brand">
          <Logo size={36} />
          <span>{t('app.siteTitle')}</span>
        </div>
        <LanguageSwitch className="login-lang" />
      </header>
      <main className="login-main">
        <section className="login-hero">
          <h2>{t('app.siteTitle')}</h2>
          <p>{t('app.subtitle')}</p>
          <EcgLine className="login-ecg" />
          <ul>
            {features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </section>
        <section className="login-card" aria-label={t('route.login')}>
          <div className="login-card-head">
            <Logo size={56} />
            <h1>{t('app.siteTitle')}</h1>
            <p>{t('login.welcome')}</p>
          </div>
          <Spin spinning={signingIn} description={t('wechat.signingIn')}>
            {mode === 'wechat' ? (
              <>
                <Suspense fallback={<Spin className="wechat-panel" />}>
                  <WechatQrPanel purpose="login" />
                </Suspense>
                <Button
                  block
                  icon={<ArrowLeftOutlined />}
                  onClick={() => setMode('form')}
                  data-testid="login-back"
                >
                  {t('wechat.back')}
                </Button>
              </>
            ) : (
              <LoginForm onSignedIn={signedIn} onOpenLegal={setLegal} />
            )}
          </Spin>
          <div className="login-extra">
            <span className="login-other">
              {t('login.otherWays')}
              <Tooltip title={t('login.wechat')}>
                <Button
                  type="text"
                  shape="circle"
                  icon={<WechatOutlined />}
                  className="login-wechat"
                  aria-label={t('login.wechat')}
                  onClick={() => setMode('wechat')}
                  data-testid="login-wechat"
                />
              </Tooltip>
            </span>
            <Divider orientation="vertical" />
            <button
              type="button"
              className="link-button"
              onClick={() => setForgotOpen(true)}
              data-testid="login-forgot"
            >
              {t('login.forgot')}
            </button>
          </div>
        </section>
      </main>
      <LegalLinks className="login-footer" />
      <LazyMount when={picker !== null}>
        <OrgPickerModal login={picker} onPicked={complete} onCancel={() => setPicker(null)} />
      </LazyMount>
      <LazyMount when={forgotOpen}>
        <ForgotPasswordModal open={forgotOpen} onClose={() => setForgotOpen(false)} />
      </LazyMount>
      <LazyMount when={legal !== null}>
        <LegalModal kind={legal} onClose={() => setLegal(null)} />
      </LazyMount>
    </div>
  )
}
