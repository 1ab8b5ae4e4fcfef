/** Never shown: the legacyCourse middleware answers 301 to /course/{id} first. */
import { Navigate, useParams } from "react-router-dom";

export default function CourseOldPage() {
  const { id } = useParams();
  return <Navigate to={`/course/${id ?? ""}`} replace />;
}
