import { UsersList } from '../components/users-list';

/** /users-new: the data-grid variant of the users grid. */
export default function UsersNewRoute() {
  return <UsersList variant="grid" />;
}
