import { UsersList } from '../components/users-list';

/** /users: the classic users grid. */
export default function UsersRoute() {
  return <UsersList variant="classic" />;
}
