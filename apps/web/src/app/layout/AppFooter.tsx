import { Layout } from 'antd'
import { LegalLinks } from '../../components/LegalLinks'

export function AppFooter() {
  return (
    <Layout.Footer className="app-footer">
      <LegalLinks className="app-footer-links" />
    </Layout.Footer>
  )
}
