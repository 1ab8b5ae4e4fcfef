/** Never shown: the legacyCourse middleware answers 301 to /course/{id} first. */
import { useEffect } from "react";
import { useNavigate, useParams } from "react-router-dom";

export default function CourseOldPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  // What the router's <Navigate> does, without bringing it into every page's router chunk.
  useEffect(() => void navigate(`/course/${id ?? ""}`, { replace: true }), [navigate, id]);
  return null;
}
