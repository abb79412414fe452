//pass
//--local_size=64 --num_groups=64



__kernel 
void foo(int a)
{
	a = 5;
}

