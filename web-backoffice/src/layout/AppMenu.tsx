import AccountCircle from '@mui/icons-material/AccountCircle';
import AdsClickIcon from '@mui/icons-material/AdsClick';
import LockIcon from '@mui/icons-material/Lock';
import QueueIcon from '@mui/icons-material/Queue';
import ShareIcon from '@mui/icons-material/Share';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { ListItemIcon, MenuItem } from '@mui/material';
import { Menu, usePermissions, useTranslate } from 'react-admin';

/** The menu lists only the resources registered for the role; a merchant never sees an admin screen. */
export const AppMenu = () => {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  return (
    <Menu>
      <Menu.DashboardItem primaryText={translate('offers.menu.dashboard')} />
      <Menu.ResourceItems />
      {/* MUI's menu list wants its items as direct children or an array, never a Fragment. */}
      {permissions === 'merchant' && [
        <Menu.Item
          key="store"
          to="/store"
          primaryText={translate('offers.menu.store')}
          leftIcon={<StorefrontIcon />}
        />,
        <Menu.Item
          key="profile"
          to="/profile"
          primaryText={translate('offers.menu.profile')}
          leftIcon={<AccountCircle />}
        />,
        <Menu.Item
          key="tracking"
          to="/tracking"
          primaryText={translate('offers.menu.tracking')}
          leftIcon={<AdsClickIcon />}
        />,
        <Menu.Item
          key="referral"
          to="/referral"
          primaryText={translate('offers.menu.referral')}
          leftIcon={<ShareIcon />}
        />,
        <Menu.Item
          key="security"
          to="/security"
          primaryText={translate('offers.password.menu')}
          leftIcon={<LockIcon />}
        />,
      ]}
      {permissions === 'admin' && (
        // The queue dashboard is a page of the API, outside the back-office's router.
        <MenuItem component="a" href="/api/admin/queues" target="_blank" rel="noopener">
          <ListItemIcon>
            <QueueIcon />
          </ListItemIcon>
          {translate('offers.menu.queues')}
        </MenuItem>
      )}
    </Menu>
  );
};
